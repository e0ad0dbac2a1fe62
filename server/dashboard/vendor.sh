#!/bin/sh
# vendor.sh re-fetches the dashboard's chart library from npm at a pinned
# version and copies its built, minified bundle and licence into
# assets/vendor/, which go:embed puts in the boa binary (no CDN at run
# time). Run it from any directory: sh server/dashboard/vendor.sh
set -eu
ECHARTS_VERSION=6.1.0
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm init -y >/dev/null
npm install --no-audit --no-fund --ignore-scripts "echarts@$ECHARTS_VERSION" >/dev/null
out="$here/assets/vendor"
mkdir -p "$out"
cp node_modules/echarts/dist/echarts.min.js "$out/echarts.min.js"
cp node_modules/echarts/LICENSE "$out/echarts.LICENSE"
cp node_modules/echarts/NOTICE "$out/echarts.NOTICE" 2>/dev/null || true
# zrender, ECharts' renderer, is bundled into echarts.min.js: its licence too.
cp node_modules/zrender/LICENSE "$out/zrender.LICENSE"
printf 'echarts %s (npm), dist/echarts.min.js; zrender %s bundled in it\n' \
	"$ECHARTS_VERSION" "$(node -p 'require("./node_modules/zrender/package.json").version')" >"$out/VERSION"
echo "vendored echarts $ECHARTS_VERSION into $out"
