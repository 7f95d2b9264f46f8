# Written for CudaPerf's import test: a linear layer, GELU, then LayerNorm.
import torch
import torch.nn as nn

batch_size = 256
in_features = 512
out_features = 1024


class Model(nn.Module):
    """Linear -> GELU -> LayerNorm over the feature dimension."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features)

    def forward(self, x):
        return self.norm(torch.nn.functional.gelu(self.fc(x)))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
