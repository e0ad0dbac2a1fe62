package datasets

import (
	"strings"
	"testing"
)

func TestLoadDigits(t *testing.T) {
	x, y, err := LoadDigits(DigitsPath())
	if err != nil {
		t.Skipf("digits data not available (%v)", err)
	}
	if len(y) != 1797 || len(x) != 1797*DigitsPixels {
		t.Fatalf("%d rows, %d pixels; want 1797 rows of 64", len(y), len(x))
	}
	// sklearn's first digit is a 0 whose first row is 0,0,5,13,9,1,0,0.
	if y[0] != 0 || x[2] != 5.0/16 || x[3] != 13.0/16 {
		t.Errorf("first row: label %d, pixels %v", y[0], x[:8])
	}
}

func TestLoadDigitsMissing(t *testing.T) {
	t.Setenv(EnvDigits, "/no/such/digits.csv.gz")
	_, _, err := LoadDigits(DigitsPath())
	if err == nil || !strings.Contains(err.Error(), "/no/such/digits.csv.gz") || !strings.Contains(err.Error(), EnvDigits) {
		t.Fatalf("error %v: want one naming the path and %s", err, EnvDigits)
	}
}
