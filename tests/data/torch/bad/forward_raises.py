import torch
N = 4
class Model(torch.nn.Module):
    def forward(self, x):
        raise ValueError("no forward for you")
def get_inputs():
    return [torch.rand(N)]
def get_init_inputs():
    return []
