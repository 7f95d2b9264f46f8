import sys
import torch
N = 4
class Model(torch.nn.Module):
    def forward(self, x):
        sys.exit(3)
def get_inputs():
    return [torch.rand(N)]
def get_init_inputs():
    return []
