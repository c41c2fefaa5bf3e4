// The model of tile-interp's wgmma (tools/tile-interp/WgmmaHandlers.cpp)
// checked on an H200 (2026-12-01, nvcc 13.0):
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -o t wgmma-b-transpose.cu && ./t
//
// One warpgroup, A 64x64 and B 64x128 (two 64-column chunks 8192 bytes
// apart) bf16 in shared memory, 128-byte swizzled as the TMA writes them
// (granule g of row r at g ^ (r % 8)), A the identity in its first 64
// columns, B[k][n] = (5k + n) % 256 stored N-major (k rows of 64 n per
// chunk); four m64n72k16 wgmma with A's descriptor 32 bytes on and B's
// 2048 bytes on per k step (leading byte offsets 16 and 8192, stride 1024),
// D stored through the accumulator layout. With imm-trans-b 1 (nvvm layout
// `row` for B) D = A * B exactly; with imm-trans-b 0 (`col`, K-major B) it
// is not:
//
//   no error trans-b=0: 4512 of 4608 differ from N-major B; D[1][0..2] 1 6 11 D[0][64] 64
//   no error trans-b=1: 0 of 4608 differ from N-major B; D[1][0..2] 5 6 7 D[0][64] 64
//
// (Written compactly: it was sent to the GPU machine as one command line.)
#include <cstdio>
#include <cuda_bf16.h>
#define F(i) "+f"(d[i])
#define G(i) F(i),F(i+1),F(i+2),F(i+3)
#define V __float2bfloat16
template<int T>__global__ void k(float*o){extern __shared__ char m[];
auto A=(__nv_bfloat16*)((size_t(m)+1023)&~1023ull),B=A+4096;int t=threadIdx.x;
for(int e=t;e<8192;e+=128){int r=e/64,c=e%64,q=e/128,n=e%128,z=n%64;if(e<4096)A[r*64+(c/8^r%8)*8+c%8]=V(c==r);B[n/64*4096+q*64+(z/8^q%8)*8+z%8]=V((q*5+n)%256);}
asm volatile("fence.proxy.async.shared::cta;");__syncthreads();
size_t a=__cvta_generic_to_shared(A),b=__cvta_generic_to_shared(B),x=(a&262143)>>4|1ull<<16|1ull<<38|1ull<<62,y=(b&262143)>>4|1ull<<25|1ull<<38|1ull<<62;
float d[36]={};asm volatile("wgmma.fence.sync.aligned;");
for(int j=0;j<4;j++,x+=2,y+=128)asm volatile("{.reg .pred p;setp.ne.b32 p,%38,0;wgmma.mma_async.sync.aligned.m64n72k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35},%36,%37,p,1,1,0,%39;}":G(0),G(4),G(8),G(12),G(16),G(20),G(24),G(28),G(32):"l"(x),"l"(y),"r"(1),"n"(T));
asm volatile("wgmma.commit_group.sync.aligned;wgmma.wait_group.sync.aligned 0;");
int w=t/32,l=t%32;for(int i=0;i<36;i++)o[(16*w+l/4+8*(i/2%2))*72+8*(i/4)+2*(l%4)+i%2]=d[i];}
int main(){float*o,h[4608];cudaMalloc(&o,sizeof h);for(int s=0;s<2;s++){auto f=s?k<1>:k<0>;
cudaFuncSetAttribute(f,cudaFuncAttributeMaxDynamicSharedMemorySize,30000);f<<<1,128,30000>>>(o);
cudaMemcpy(h,o,sizeof h,cudaMemcpyDeviceToHost);int u=0;for(int e=0;e<4608;e++)u+=h[e]!=(e/72*5+e%72)%256;
printf("%s trans-b=%d: %d of 4608 differ from N-major B; D[1][0..2] %g %g %g D[0][64] %g\n",cudaGetErrorString(cudaGetLastError()),s,u,h[72],h[73],h[74],h[64]);}}
