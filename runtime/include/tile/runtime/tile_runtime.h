/*===- tile_runtime.h - Load and launch tile kernel artifacts -----*- C -*-===*\
|*                                                                            *|
|* A C API over kernel artifacts (docs/artifact.md): open a manifest and the  *|
|* binaries it names, load the kernel into a GPU's primary context, check     *|
|* and launch. Opening and checking need no GPU; loading dlopens the NVIDIA   *|
|* driver (libcuda.so.1, or $TILE_CUDA_DRIVER_LIBRARY).                       *|
|*                                                                            *|
|* Every function that can fail returns a tile_status; tile_last_error()      *|
|* then says why, in one line. Nothing here aborts or throws on bad input.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_RUNTIME_TILE_RUNTIME_H
#define TILE_RUNTIME_TILE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TILE_RUNTIME_API __attribute__((visibility("default")))
#else
#define TILE_RUNTIME_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
typedef enum tile_status {
  TILE_SUCCESS = 0,
  /* A null pointer or out-of-range value was passed to the API. */
  TILE_ERROR_INVALID_ARGUMENT = 1,
  /* A manifest or binary file could not be read. */
  TILE_ERROR_IO = 2,
  /* The manifest is not valid JSON, lacks a field, or is inconsistent. */
  TILE_ERROR_INVALID_MANIFEST = 3,
  /* A binary's size or FNV-1a hash differs from the manifest. */
  TILE_ERROR_BINARY_MISMATCH = 4,
  /* libcuda.so.1 could not be loaded. */
  TILE_ERROR_NO_DRIVER = 5,
  /* The driver is there but sees no usable GPU. */
  TILE_ERROR_NO_DEVICE = 6,
  /* The driver is too old for the binary (or lacks an entry point). */
  TILE_ERROR_DRIVER_TOO_OLD = 7,
  /* The binary was built for another compute capability, or the device
   * lacks what the kernel needs (clusters, shared memory, memory pools). */
  TILE_ERROR_WRONG_DEVICE = 8,
  /* The driver rejected the binary, or it lacks the kernel. */
  TILE_ERROR_LOAD_FAILED = 9,
  /* Launch arguments do not match the manifest's params. */
  TILE_ERROR_INVALID_LAUNCH_ARGS = 10,
  /* cuLaunchKernel (or cuLaunchKernelEx) failed. */
  TILE_ERROR_LAUNCH_FAILED = 11,
  /* Any other CUDA driver error. */
  TILE_ERROR_CUDA = 12,
  /* cuTensorMapEncodeTiled refused a tensor map for the buffers passed. */
  TILE_ERROR_TENSOR_MAP_FAILED = 13
} tile_status;

/* "TILE_ERROR_NO_DRIVER" for TILE_ERROR_NO_DRIVER; "unknown status" for
 * values outside the enum. */
TILE_RUNTIME_API const char *tile_status_name(int status);

/* Why the most recent call on this thread failed, in one line; "" after a
 * call that succeeded. Valid until the next call on this thread. */
TILE_RUNTIME_API const char *tile_last_error(void);

typedef struct tile_artifact tile_artifact;
typedef struct tile_kernel tile_kernel;

/* One kernel argument: a device pointer (CUdeviceptr) and the size in bytes
 * of the allocation behind it, from that pointer on. */
typedef struct tile_buffer {
  uint64_t device_ptr;
  uint64_t size_bytes;
} tile_buffer;

/* A dynamic offset or stride in tile_param_info (the manifest's
 * "dynamic"): its value comes with each launch (tile_layout). */
#define TILE_DYNAMIC (-1)

/* One param's layout at a launch, in elements: element (i, j) of matrix b
 * at base[offset + b*batch_stride + i*row_stride + j*col_stride]. Fields
 * the manifest gives a value must have that value; dynamic ones
 * (TILE_DYNAMIC in tile_param_info) take any the kernel allows (a multiple
 * of the param's alignment in bytes; the rules of docs/artifact.md). */
typedef struct tile_layout {
  int64_t offset, row_stride, col_stride, batch_stride;
} tile_layout;

typedef struct tile_param_info {
  const char *name;         /* "A" */
  const char *role;         /* "lhs", "rhs" or "result" */
  const char *element_type; /* "f32", "bf16" or "f16" */
  int64_t rows, cols;
  int64_t row_stride, col_stride; /* in elements; TILE_DYNAMIC: at launch */
  uint32_t alignment;             /* bytes */
  const char *access;             /* "read", "write" or "readwrite" */
  uint32_t element_bytes;
  /* The smallest buffer that holds the param: offset + (rows-1)*row_stride
   * + (cols-1)*col_stride + 1 elements, plus (batch-1)*batch_stride for a
   * batched kernel (tile_kernel_info.batch above 1), times element_bytes;
   * 0 when an offset or stride is TILE_DYNAMIC (the launch's layout
   * decides). */
  uint64_t required_bytes;
  /* How many of the kernel's tensor maps view this param: the runtime
   * encodes them from this param's buffer at each launch. */
  uint32_t num_tensor_maps;
  /* Added with batched kernels: elements between the matrices of
   * consecutive batches, matrix b at base + b*batch_stride; 0 when the
   * kernel is not batched. Appended, so the fields above keep their
   * offsets; but the struct grew, and tile_kernel_info's params is an
   * array of it: code compiled against an older header must be rebuilt. */
  int64_t batch_stride;
  /* Added with strided operands: elements from the pointer passed to
   * element (0, 0), a strided memref's offset (a subview's); element
   * (i, j) of matrix b at base[offset + b*batch_stride + i*row_stride +
   * j*col_stride]. 0 for a dense operand. Appended, as batch_stride.
   * TILE_DYNAMIC, as the strides, where the launch gives it. */
  int64_t offset;
} tile_param_info;

/* One TMA descriptor (CUtensorMap) the kernel takes by value after its
 * params. The caller passes only the params' buffers; the runtime encodes
 * each map from the buffer of its param at launch (docs/artifact.md). */
typedef struct tile_tensor_map_info {
  const char *param;  /* the name of the param it views */
  size_t param_index; /* that param's index in tile_kernel_info.params */
  uint32_t box_rows, box_cols; /* elements one copy moves */
  const char *swizzle;         /* "none", "32B", "64B" or "128B" */
  const char *l2_promotion;    /* "none", "64B", "128B" or "256B" */
  /* 0: the map views the param's buffer. Otherwise, at each launch, the
   * runtime first copies the param's matrix into a buffer of its own (on
   * the launch's stream: cuMemAllocAsync, cuMemcpy2DAsync, freed with
   * cuMemFreeAsync after the kernel) whose rows are this many elements
   * apart, and the map views that copy. */
  int64_t repack_row_stride;
} tile_tensor_map_info;

/* Everything the manifest says. Strings and the params array belong to the
 * artifact and stay valid until tile_artifact_close. */
typedef struct tile_kernel_info {
  const char *kernel; /* entry symbol */
  const char *manifest_path;
  const char *chip;        /* "sm_90" */
  const char *ptx_version; /* "8.0" */
  const char *cubin_path;  /* null when the artifact has no cubin */
  const char *ptx_path;    /* null when the artifact has no PTX */
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t cluster[3]; /* thread block cluster, {1, 1, 1} for none */
  uint32_t dynamic_shared_bytes;
  int64_t m, n, k;
  const char *element_type;     /* of A and B: "f32", "bf16" or "f16" */
  const char *accumulator_type; /* "f32" */
  const char *c_init;           /* "fill" or "accumulate" */
  double c_fill_value;
  size_t num_params;
  const tile_param_info *params;
  size_t num_tensor_maps;
  const tile_tensor_map_info *tensor_maps;
  const char *strategy;     /* "fma" or "wgmma" */
  const char *config_text;  /* "#tile.config<...>" */
  const char *config_short; /* "128x128x8/32x64/8x8/s2/g8/pad4/pf" */
  /* From ptxas at compile time; -1 where unknown. */
  int64_t registers, spill_stores, spill_loads, stack_bytes;
  /* Added with batched kernels (appended to keep the layout of the fields
   * above): the number of matrices, C[b] (+)= A[b] * B[b] for b in
   * 0..batch-1, launched on grid y (grid[1] == batch); 1 for a plain
   * matmul. Each lhs, rhs and result param then has a batch_stride. */
  int64_t batch;
} tile_kernel_info;

/* Reads and parses the manifest, checks its consistency, reads every binary
 * it names and checks each one's size and FNV-1a hash. Needs no GPU. On
 * success *out owns the artifact; close it with tile_artifact_close. */
TILE_RUNTIME_API int tile_artifact_open(const char *manifest_path,
                                        tile_artifact **out);

/* Null is ignored. */
TILE_RUNTIME_API void tile_artifact_close(tile_artifact *artifact);

TILE_RUNTIME_API int tile_artifact_get_info(const tile_artifact *artifact,
                                            tile_kernel_info *out);

/* Checks launch arguments (one buffer per param, none for the tensor maps)
 * against the manifest without a GPU: their count, each buffer's size
 * against what its param needs, each pointer's alignment (16 bytes at least
 * for a param a tensor map views in place) and that it is not null. Returns
 * TILE_ERROR_INVALID_LAUNCH_ARGS with the param named in tile_last_error()
 * when one does not fit. */
TILE_RUNTIME_API int tile_artifact_check_args(const tile_artifact *artifact,
                                              const tile_buffer *args,
                                              size_t num_args);

/* tile_artifact_check_args for a kernel whose params have dynamic offsets
 * or strides: `layouts` gives each param's (one per param, in order), which
 * must fit the manifest (see tile_layout) before the buffers are checked
 * against them. Also takes kernels without dynamic fields (then each
 * layout must be the manifest's). */
TILE_RUNTIME_API int tile_artifact_check_layouts(const tile_artifact *artifact,
                                                 const tile_buffer *args,
                                                 const tile_layout *layouts,
                                                 size_t num_args);

/* Which binary tile_kernel_load uses. */
typedef enum tile_binary_choice {
  /* The cubin when the device's compute capability is the artifact's chip,
   * else the PTX (JIT-compiled by the driver). */
  TILE_BINARY_AUTO = 0,
  TILE_BINARY_CUBIN = 1,
  TILE_BINARY_PTX = 2
} tile_binary_choice;

typedef struct tile_load_options {
  int device; /* CUDA device ordinal */
  int binary; /* a tile_binary_choice */
} tile_load_options;

/* Loads the artifact's kernel on a device: dlopens the driver, initializes
 * it, retains the device's primary context (so libraries using the CUDA
 * runtime API, such as cuBLAS, share it) and makes it current on this
 * thread, checks the compute capability and the driver version (and that
 * the driver has cuLaunchKernelEx for a cluster and cuTensorMapEncodeTiled
 * for tensor maps, and the device cluster launches), loads the binary and
 * finds the kernel, raises the kernel's dynamic shared memory limit when it
 * needs more than 48 KiB and allows a non-portable cluster size for more
 * than 8 blocks. `options` may be null: device 0, TILE_BINARY_AUTO. The
 * kernel keeps what it needs: the artifact may be closed afterwards. */
TILE_RUNTIME_API int tile_kernel_load(const tile_artifact *artifact,
                                      const tile_load_options *options,
                                      tile_kernel **out);

typedef struct tile_load_info {
  int device;
  char device_name[256];
  int compute_major, compute_minor;
  int driver_version;        /* cuDriverGetVersion: 13000 is CUDA 13.0 */
  const char *binary_format; /* "cubin" or "ptx" */
  const char *binary_path;
  /* As the driver reports them for the loaded kernel. */
  int registers;
  int local_bytes;
  int max_threads_per_block;
  void *context; /* the primary context (CUcontext) */
} tile_load_info;

TILE_RUNTIME_API int tile_kernel_get_load_info(const tile_kernel *kernel,
                                               tile_load_info *out);

/* Checks the arguments as tile_artifact_check_args does, makes the kernel's
 * context current on this thread if it is not, enqueues the copies of the
 * params that tensor maps repack (repack_row_stride), encodes the
 * manifest's tensor maps from the buffers or those copies
 * (cuTensorMapEncodeTiled; a refusal is TILE_ERROR_TENSOR_MAP_FAILED) and
 * enqueues the kernel on `stream` (a
 * CUstream; null for the default stream) with the manifest's grid, block and
 * dynamic shared memory: the buffers' pointers, then the maps by value.
 * With a cluster of more than one block it launches through
 * cuLaunchKernelEx with the cluster dimension attribute, else through
 * cuLaunchKernel. Asynchronous: errors while the kernel runs show up at the
 * next synchronization. */
TILE_RUNTIME_API int tile_kernel_launch(tile_kernel *kernel,
                                        const tile_buffer *args,
                                        size_t num_args, void *stream);

/* tile_kernel_launch with each param's layout (one per param, in order):
 * the way to launch a kernel whose params have dynamic offsets or strides
 * (tile_kernel_launch refuses those). The layouts are checked as
 * tile_artifact_check_layouts does; the tensor maps are encoded from them,
 * and the kernel gets each dynamic field's value as an i64 parameter after
 * the maps. */
TILE_RUNTIME_API int tile_kernel_launch_layouts(tile_kernel *kernel,
                                                const tile_buffer *args,
                                                const tile_layout *layouts,
                                                size_t num_args, void *stream);

/* Unloads the module and releases the primary context. Null is ignored. */
TILE_RUNTIME_API void tile_kernel_unload(tile_kernel *kernel);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILE_RUNTIME_TILE_RUNTIME_H */
