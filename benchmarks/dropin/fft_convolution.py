"""Blurs an image by a Gaussian through the FFT: rfft2 of image and kernel, a product, irfft2
(float32 image)."""

SIZES = {"small": (30, 48), "medium": (1000, 1024), "large": (4096, 2048), "demo": (500, 1024)}
# float32 transforms (numpy 1.24 computes them in float64): the FFT's error is ~log2(n) ulps of
# the largest value, so values of the [0, 1] image are compared absolutely at 1e-5.
RTOL = 1e-4
ATOL = 1e-5


def initialize(size, np):
    h, w = size
    rng = np.random.default_rng(16)
    image = rng.random((h, w), dtype=np.float32)
    y = np.minimum(np.arange(h), h - np.arange(h))[:, None]
    x = np.minimum(np.arange(w), w - np.arange(w))[None, :]
    blur = np.exp(-(x * x + y * y) / 8.0)
    return image, (blur / blur.sum()).astype(np.float32)


def kernel(np, image, blur):
    spectrum = np.fft.rfft2(image) * np.fft.rfft2(blur)
    return np.fft.irfft2(spectrum, s=image.shape)
