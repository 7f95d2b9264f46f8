import torch
import torch.nn as nn

n = 64

class Model(nn.Module):
    def forward(self, x)
        return x * 2

def get_inputs():
    return [torch.randn(n)]

def get_init_inputs():
    return []
