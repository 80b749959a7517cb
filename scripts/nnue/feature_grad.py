"""feature_grad.py — the input layer's sum of feature weights with its weight
gradient summed in C (feature_grad.c), for `train.py --c-gradient`.

The forward pass is torch's EmbeddingBag sum; the backward pass adds each
board's output gradient to its features' weight rows in one loop over the
boards. The library is compiled from feature_grad.c by the C compiler on
first use into build/nnue/, named by the source's sha256."""
import ctypes
import hashlib
import os
import subprocess

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "feature_grad.c")
BUILD = os.path.join(HERE, "..", "..", "build", "nnue")
_library = None


def library():
    """The compiled feature_grad.c, built if it is not there yet."""
    global _library
    if _library is None:
        digest = hashlib.sha256(open(SOURCE, "rb").read()).hexdigest()[:12]
        path = os.path.join(BUILD, f"feature_grad-{digest}.so")
        if not os.path.exists(path):
            os.makedirs(BUILD, exist_ok=True)
            partial = f"{path}.{os.getpid()}"
            subprocess.run([os.environ.get("CC", "cc"), "-O3", "-shared", "-fPIC", "-o", partial, SOURCE], check=True)
            os.replace(partial, path)  # whole or not at all, should two trainings build it at once
        _library = ctypes.CDLL(path)
        _library.feature_grad.restype = None
        _library.feature_grad.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int64] * 3
    return _library


class FeatureSum(torch.autograd.Function):
    """weight rows summed per board (EmbeddingBag, mode "sum"); the gradient of
    `weight` only: the features and offsets are data."""

    @staticmethod
    def forward(ctx, weight, features, offsets):
        features, offsets = features.contiguous().long(), offsets.contiguous().long()
        if len(features) and not 0 <= int(features.min()) <= int(features.max()) < weight.shape[0]:
            raise ValueError(f"a feature outside the {weight.shape[0]} rows of the input weights")
        ctx.save_for_backward(features, offsets)
        ctx.weight_shape = weight.shape
        return torch.nn.functional.embedding_bag(features, weight, offsets, mode="sum")

    @staticmethod
    def backward(ctx, output_grad):
        features, offsets = ctx.saved_tensors
        output_grad = output_grad.contiguous()
        weight_grad = torch.zeros(ctx.weight_shape, dtype=output_grad.dtype)
        library().feature_grad(weight_grad.data_ptr(), output_grad.data_ptr(), features.data_ptr(),
                               offsets.data_ptr(), len(offsets), len(features), ctx.weight_shape[1])
        return weight_grad, None, None
