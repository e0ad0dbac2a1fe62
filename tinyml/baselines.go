package tinyml

// HARBaseline is seed 004's human-activity-recognition network (Table
// 7.1, spec §5.3): 90×3 accelerometer windows, a 128-filter 2×2 valid
// convolution, a 2×2 pool, dropout 0.2, two 128-unit dense layers and 6
// classes; 738,950 parameters.
func HARBaseline() Network {
	return Network{Input: [3]int{90, 3, 1}, Layers: []Layer{
		{Type: Conv2D, Filters: 128, Kernel: Size{2, 2}, Padding: "valid", Activation: "relu"},
		{Type: MaxPool2D, Pool: Size{2, 2}},
		{Type: Dropout, Rate: 0.2},
		{Type: Flatten},
		{Type: Dense, Units: 128, Activation: "relu"},
		{Type: Dense, Units: 128, Activation: "relu"},
		{Type: Dense, Units: 6, Activation: "softmax"},
	}}
}

// IRBaseline is seed 004's image-recognition network for the fill level
// of bottles (Table 7.2, spec §5.3): 32×32×3 images, two blocks of two
// 3×3 convolutions (32 then 64 filters; padding same then valid, the
// spec's Decision) with a 2×2 pool and dropout 0.25, a 512-unit dense
// layer and 4 classes; 1,247,780 parameters.
func IRBaseline() Network {
	conv := func(f int, pad string) Layer {
		return Layer{Type: Conv2D, Filters: f, Kernel: Size{3, 3}, Padding: pad, Activation: "relu"}
	}
	return Network{Input: [3]int{32, 32, 3}, Layers: []Layer{
		conv(32, "same"), conv(32, "valid"), {Type: MaxPool2D, Pool: Size{2, 2}}, {Type: Dropout, Rate: 0.25},
		conv(64, "same"), conv(64, "valid"), {Type: MaxPool2D, Pool: Size{2, 2}}, {Type: Dropout, Rate: 0.25},
		{Type: Flatten},
		{Type: Dense, Units: 512, Activation: "relu"},
		{Type: Dropout, Rate: 0.25},
		{Type: Dense, Units: 4, Activation: "softmax"},
	}}
}
