package tabular

import (
	"errors"
	"strings"
	"testing"
)

func TestMalformed(t *testing.T) {
	const (
		hpo   = "alpha,batch_size,depth,learning_rate_init,width,seed0,seed1\n"
		fc    = "activation_fn_1,activation_fn_2,batch_size,dropout_1,dropout_2,init_lr,lr_schedule,n_units_1,n_units_2,seed0\n"
		nb    = "index,arch,valid_acc_seed0,valid_acc_seed1,valid_acc_seed2,valid_acc_mean,test_acc,test_acc_12ep\n"
		cell  = "|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|skip_connect~0|nor_conv_3x3~1|nor_conv_1x1~2|"
		cell2 = "|none~0|+|none~0|none~1|+|none~0|none~1|none~2|"
	)
	for _, tc := range []struct {
		name    string
		kind    Kind
		content string
		line    int    // 0: about the whole file
		column  int    // 0: about a whole line
		want    string // part of the message
	}{
		{"empty file", HPOBench, "", 0, 0, "the file is empty; the first line must be the header: alpha, batch_size"},
		{"blank lines only", FCNet, "\n\n", 0, 0, "the file is empty"},
		{"header only", HPOBench, hpo, 0, 0, "no data rows after the header"},
		{"no header", HPOBench, "1e-08,4,1,1e-05,16,0.8,0.9\n", 1, 0,
			`the first line must be the header, not a data row; header: missing columns alpha, batch_size, depth, learning_rate_init, width, seed0; unexpected columns "1e-08", "4"`},
		{"missing column", HPOBench, "alpha,batch_size,depth,learning_rate_init,seed0\n", 1, 0,
			"header: missing columns width; want alpha, batch_size, depth, learning_rate_init, width, seed0, seed1, ..."},
		{"unexpected column", HPOBench, "alpha,batch_size,depth,learning_rate_init,width,lr,seed0\n", 1, 0, `unexpected columns "lr"`},
		{"repeated column", HPOBench, "alpha,alpha,batch_size,depth,learning_rate_init,width,seed0\n", 1, 0, "repeated columns alpha"},
		{"seed gap", HPOBench, "alpha,batch_size,depth,learning_rate_init,width,seed0,seed2\n", 1, 0, "missing columns seed1"},
		// Seed columns named by seed value, as in HPOBench's own files: a few
		// gaps named, the rest counted (it listed all 1,318 names).
		{"seeds numbered by value", HPOBench, "alpha,batch_size,depth,learning_rate_init,width,seed665,seed1319\n", 1, 0,
			"header: missing columns seed0, seed1, seed2 and 1315 more (seed columns are numbered seed0, seed1, ... without gaps); want"},
		// A huge seed number: it took 154 s and 14 GB building the list of
		// missing columns (seed100000000), or was silently dropped when k+1
		// overflowed (seed9223372036854775807).
		{"huge seed number", HPOBench, "alpha,batch_size,depth,learning_rate_init,width,seed0,seed100000000\n", 1, 0,
			"missing columns seed1, seed2, seed3 and 99999996 more"},
		{"seed number overflows", HPOBench, "alpha,batch_size,depth,learning_rate_init,width,seed0,seed9223372036854775807\n1e-08,4,1,1e-05,16,0.8,0.9\n", 1, 0,
			"missing columns seed1, seed2, seed3 and 9223372036854775803 more"},
		{"no seeds", FCNet, strings.TrimSuffix(fc, ",seed0\n") + "\n", 1, 0, "missing columns seed0"},
		{"seed with leading zero", HPOBench, "alpha,batch_size,depth,learning_rate_init,width,seed00\n", 1, 0, `unexpected columns "seed00"`},
		{"nb201 header of hpobench", NB201, hpo, 1, 0, `header: missing columns arch, test_acc, valid_acc_seed0; unexpected columns "alpha"`},
		{"field count", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.8,0.9\n1e-08,4,1,1e-05,25,0.8\n", 3, 0, "6 fields, but the header has 7"},
		{"bad quote", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.8,0.9\n1e-08,4,\"1,1e-05,25,0.8,0.9\n", 3, 0, "malformed CSV"},
		{"seed not a number", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.8,0.9\n1e-08,4,1,1e-05,25,0.8,abc\n", 3, 7,
			`cannot read "abc" as a number; want a balanced accuracy in [0, 1]`},
		{"NaN", HPOBench, hpo + "1e-08,4,1,1e-05,16,NaN,0.9\n", 2, 6, "NaN is not a finite number"},
		{"Inf", FCNet, fc + "relu,relu,8,0.0,0.0,0.0005,cosine,16,16,+Inf\n", 2, 10, "+Inf is not a finite number"},
		{"accuracy above 1", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.5,1.5\n", 2, 7, "1.5 is out of range; want a balanced accuracy in [0, 1]"},
		{"negative MSE", FCNet, fc + "relu,relu,8,0.0,0.0,0.0005,cosine,16,16,-0.1\n", 2, 10, "-0.1 is out of range; want a mean squared error ≥ 0"},
		{"all seeds empty", HPOBench, hpo + "1e-08,4,1,1e-05,16,,\n", 2, 0, "no seed values (columns seed0..1 are all empty)"},
		{"empty hyperparameter", HPOBench, hpo + ",4,1,1e-05,16,0.5,0.5\n", 2, 1, "empty; every row needs a value"},
		{"hyperparameter not a number", FCNet, fc + "relu,relu,8,0.0,0.0,0.0005,cosine,16,16,0.1\nrelu,relu,big,0.0,0.0,0.0005,cosine,16,16,0.1\n", 3, 3,
			`cannot read "big" as a number`},
		{"hyperparameter NaN", HPOBench, hpo + "nan,4,1,1e-05,16,0.5,0.5\n", 2, 1, "nan is not a finite number"},
		{"repeated configuration", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.8,0.9\n1e-08,4,1,1e-05,25,0.8,0.9\n1e-8,4,1,1e-05,16.0,0.7,0.7\n", 4, 0,
			"repeats the configuration of line 2 (alpha=1e-08 batch_size=4 depth=1 learning_rate_init=1e-05 width=16)"},
		{"repeated configuration, incomplete grid", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.8,0.9\n1e-07,4,1,1e-05,25,0.8,0.9\n1e-08,4,1,1e-05,16,0.7,0.7\n", 4, 0,
			"repeats the configuration of line 2"},
		{"incomplete grid", HPOBench, hpo + "1e-08,4,1,1e-05,16,0.8,0.9\n1e-07,4,1,1e-05,16,0.8,0.9\n1e-08,4,1,1e-05,25,0.7,0.7\n", 0, 0,
			"3 rows, but the values in the columns span a grid of alpha 2 × batch_size 1 × depth 1 × learning_rate_init 1 × width 2 = 4 configurations; " +
				"the documented format has one row for every configuration of the grid (the first missing is alpha=1e-07 batch_size=4 depth=1 learning_rate_init=1e-05 width=25)"},

		{"nb201 unknown op", NB201, nb + "0," + strings.Replace(cell, "nor_conv_1x1", "conv_5x5", 1) + ",90,90,90,90,94,80\n", 2, 2,
			`unknown operation "conv_5x5"; want one of none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3`},
		{"nb201 two nodes", NB201, nb + "0,|none~0|+|none~0|none~1|,90,90,90,90,94,80\n", 2, 2, "has 2 nodes separated by '+'"},
		{"nb201 wrong inputs", NB201, nb + "0,|none~0|+|none~0|+|none~0|none~1|none~2|,90,90,90,90,94,80\n", 2, 2, "node 2 should have 2 inputs, got 1"},
		{"nb201 wrong source", NB201, nb + "0,|none~0|+|none~1|none~0|+|none~0|none~1|none~2|,90,90,90,90,94,80\n", 2, 2, `input "none~1" of node 2 should be op~0`},
		{"nb201 no bars", NB201, nb + "0,none~0+|none~0|none~1|+|none~0|none~1|none~2|,90,90,90,90,94,80\n", 2, 2, "node 1 (\"none~0\") is not enclosed in '|'"},
		{"nb201 repeated cell", NB201, nb + "0," + cell + ",90,90,90,90,94,80\n1," + cell2 + ",10,10,,10,10,\n2," + cell + ",90,90,90,90,94,80\n", 4, 2,
			"cell " + cell + " already appeared on line 2"},
		{"nb201 accuracy above 100", NB201, nb + "0," + cell + ",90,190,90,90,94,80\n", 2, 4, "190 is out of range; want a validation accuracy in percent"},
		{"nb201 bad mean", NB201, nb + "0," + cell + ",90,91,,90,94,80\n", 2, 6, "90 is not the mean of the 2 validation runs on this row (90.5)"},
		{"nb201 no runs", NB201, nb + "0," + cell + ",,,,90,94,80\n", 2, 0, "no seed values (columns valid_acc_seed0..2 are all empty)"},
		{"nb201 empty test", NB201, nb + "0," + cell + ",90,90,90,90,,80\n", 2, 7, "empty; want a test accuracy in percent"},
		{"nb201 bad index", NB201, nb + "x," + cell + ",90,90,90,90,94,80\n", 2, 1, `"x" is not an architecture index`},
		{"nb201 bad 12-epoch accuracy", NB201, nb + "0," + cell + ",90,90,90,90,94,-1\n", 2, 8, "-1 is out of range"},
		{"nb201 incomplete", NB201, nb + "0," + cell + ",90,90,90,90,94,80\n1," + cell2 + ",10,10,,10,10,\n", 0, 0,
			"2 of the 15625 NAS-Bench-201 cells have a row; every cell needs one (the first missing is |none~0|+|none~0|none~1|+|none~0|none~1|skip_connect~2|)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "bad.csv", tc.content)
			_, err := Load(tc.kind, path)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Load error = %v, want a *FormatError", err)
			}
			if fe.Path != path || fe.Line != tc.line || fe.Column != tc.column || !strings.Contains(fe.Msg, tc.want) {
				t.Errorf("Load error = %v\n(path %s, line %d, column %d); want line %d, column %d and %q",
					err, fe.Path, fe.Line, fe.Column, tc.line, tc.column, tc.want)
			}
			if !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

// TestMalformedLateLine checks that errors far into a file name the right
// line and column, here in a copy of the synthetic NB201 table.
func TestMalformedLateLine(t *testing.T) {
	content := nb201CSV(func(rows []string) []string {
		f := strings.Split(rows[9999], ",")
		f[6] = "9x" // test_acc of line 10001
		rows[9999] = strings.Join(f, ",")
		return rows
	})
	_, err := Load(NB201, writeFile(t, "late.csv", content))
	want := "line 10001, column 7 (test_acc): cannot read \"9x\" as a number"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load error = %v, want %q", err, want)
	}
}

func TestHeaderVariants(t *testing.T) {
	// A byte-order mark, spaces around names, CRLF line ends, columns in
	// another order and no optional NB201 columns are all accepted.
	rows := strings.Split(strings.TrimSpace(nb201CSV(nil)), "\n")[1:]
	var b strings.Builder
	b.WriteString("\ufefftest_acc, valid_acc_seed1 ,arch,valid_acc_seed0\r\n")
	for _, r := range rows {
		f := strings.Split(r, ",")
		b.WriteString(f[6] + "," + f[3] + "," + f[1] + "," + f[2] + "\r\n")
	}
	tb, err := Load(NB201, writeFile(t, "variant.csv", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if tb.Seeds() != 2 || tb.Len() != nb201Cells {
		t.Errorf("Seeds, Len = %d, %d; want 2, %d", tb.Seeds(), tb.Len(), nb201Cells)
	}
}
