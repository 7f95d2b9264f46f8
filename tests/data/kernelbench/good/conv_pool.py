# Written for CudaPerf's import test: 3x3 convolution, ReLU, 2x2 max pooling,
# and a second output, the per-channel mean of the input.
import torch
import torch.nn as nn

N = 8
C_IN = 16
C_OUT = 32
H = 64
W = 48
K = 3


class Model(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, k)
        self.pool = nn.MaxPool2d(2)

    def forward(self, image):
        y = self.pool(torch.relu(self.conv(image)))
        return y, image.mean(dim=(2, 3))


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT, K]
