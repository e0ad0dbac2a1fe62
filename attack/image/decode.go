package image

// Resize resamples planes of h×w values (c channels, channels last, as
// attack.Image) to ho×wo by bilinear interpolation with align-corners
// semantics [spec attacks §1.2]: output pixel (i, j) samples the input at
// (i·(h−1)/(ho−1), j·(w−1)/(wo−1)), so the four corners map exactly onto
// the input's corners, as PyTorch's interpolate(mode='bilinear',
// align_corners=True) of the reference code. A side of one output pixel
// samples row or column 0. Channels are independent. The same function
// up-samples (the decoder g) and down-samples (g⁻¹ of Alg. 9); both are
// linear maps.
func Resize(src []float64, h, w, c, ho, wo int) []float64 {
	out := make([]float64, ho*wo*c)
	for i := range ho {
		r0, r1, fr := sample(i, ho, h)
		for j := range wo {
			c0, c1, fc := sample(j, wo, w)
			for k := range c {
				at := func(r, col int) float64 { return src[(r*w+col)*c+k] }
				top := (1-fc)*at(r0, c0) + fc*at(r0, c1)
				bottom := (1-fc)*at(r1, c0) + fc*at(r1, c1)
				out[(i*wo+j)*c+k] = (1-fr)*top + fr*bottom
			}
		}
	}
	return out
}

// sample returns the two input indices around output index i of n (input
// size m) and the weight of the second.
func sample(i, n, m int) (lo, hi int, frac float64) {
	if n == 1 || m == 1 {
		return 0, 0, 0
	}
	pos := float64(i) * float64(m-1) / float64(n-1)
	lo = min(int(pos), m-1)
	hi = min(lo+1, m-1)
	return lo, hi, pos - float64(lo)
}
