# Stands in for a machine without PyTorch.
raise ImportError("No module named 'torch'")
