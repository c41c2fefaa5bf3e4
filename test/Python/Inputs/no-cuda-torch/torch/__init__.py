# Stands in for PyTorch on a machine without a CUDA device.


class cuda:
    @staticmethod
    def is_available():
        return False
