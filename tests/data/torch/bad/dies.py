import os
import torch
N = 4
class Model(torch.nn.Module):
    def forward(self, x):
        os._exit(7)
def get_inputs():
    return [torch.rand(N)]
def get_init_inputs():
    return []
