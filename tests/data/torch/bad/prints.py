import sys
import os
import torch
N = 4
print("hello from module level " * 100)
class Model(torch.nn.Module):
    def forward(self, x):
        print("forward says hi " * 1000)
        sys.stdout.write("more\n")
        os.write(1, b"raw fd 1 write\n")
        return x * 2
def get_inputs():
    return [torch.rand(N)]
def get_init_inputs():
    return []
