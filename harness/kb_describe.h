/* kb_describe.h — the KernelBench importer's describer over the PyTorch
 * runner (torch_ref.h): one `describe` request per config, the program's
 * module-level constants passed as overrides, seed 0.
 *
 * get_inputs() items that are numbers, not tensors, are refused (CudaPerf's
 * problem format has buffers in, buffers out).  A failure of the runner
 * itself (no torch interpreter, a protocol error) is returned as -2, the
 * program's own failures (syntax, missing names, a forward that raises, the
 * deadline) as -1. */
#ifndef CUDAPERF_KB_DESCRIBE_H
#define CUDAPERF_KB_DESCRIBE_H

#include "harness/kb_import.h"
#include "harness/torch_ref.h"

/* A describer using runner r (owned by the caller, who frees it after the
 * import). */
KbDescriber kb_describer_torch(TorchRunner *r);

#endif
