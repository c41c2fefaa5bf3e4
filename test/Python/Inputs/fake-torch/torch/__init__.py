# Stands in for PyTorch with a CUDA device, up to the first tensor: enough
# for matmul_torch.py to reach tile_opt.load.


class _Namespace:
    pass


backends = _Namespace()
backends.cuda = _Namespace()
backends.cuda.matmul = _Namespace()


class cuda:
    @staticmethod
    def is_available():
        return True

    @staticmethod
    def set_device(device):
        pass


def manual_seed(seed):
    pass


def device(kind, index):
    return (kind, index)
