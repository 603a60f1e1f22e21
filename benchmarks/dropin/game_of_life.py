"""Conway's game of life on a torus (uint8 cells; neighbours counted with np.roll)."""

SIZES = {"small": (37, 50, 3), "medium": (1000, 1000, 5), "large": (4096, 4096, 4),
         "demo": (500, 500, 5)}
# Integers: exact.
RTOL = 0.0
ATOL = 0.0


def initialize(size, np):
    ny, nx, steps = size
    rng = np.random.default_rng(5)
    return (rng.random((ny, nx)) < 0.3).astype(np.uint8), steps


def kernel(np, grid, steps):
    for _ in range(steps):
        neighbours = sum(np.roll(grid, shift, axis=(0, 1))
                         for shift in [(1, 1), (1, 0), (1, -1), (0, 1), (0, -1), (-1, 1),
                                       (-1, 0), (-1, -1)])
        grid = ((neighbours == 3) | ((grid == 1) & (neighbours == 2))).astype(np.uint8)
    return grid
