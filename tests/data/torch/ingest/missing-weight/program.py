# Linear followed by ReLU: a hand-written torch program with parameters
# (w.linear.weight, w.linear.bias) for the runner's end-to-end test.
import torch
import torch.nn as nn

B = 8
IN = 32
OUT = 16


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.rand(B, IN)]


def get_init_inputs():
    return [IN, OUT]
