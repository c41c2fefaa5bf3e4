"""The exceptions of tile_opt."""


class TileError(Exception):
    """A runtime call failed, or the library cannot be loaded. `status` is
    the C API's tile_status (None for errors found in Python) and
    `status_name` its name ("TILE_ERROR_IO")."""

    def __init__(self, message, status=None, status_name=None):
        super().__init__(message)
        self.status = status
        self.status_name = status_name


class ArgumentError(TileError, ValueError):
    """Launch arguments that do not fit the kernel's manifest: their count,
    shape, element type, strides, alignment, device or writability. Raised
    before any CUDA call."""
