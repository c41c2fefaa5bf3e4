// An N-major B descriptor whose start is inside a 64-column chunk, checked
// on an H200 (2026-12-01, nvcc 13.0), with the slabs of wgmma-b-transpose.cu
// and m64n32k16: starting 32 columns (64 bytes) into the chunk, wgmma reads
// columns 32..63 (the swizzle is applied to the resulting address bits);
// starting 64 or 96 columns in (the next 128-byte row: an atom that is not
// 1024-aligned with base offset 0) it reads something else:
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -o t wgmma-b-in-chunk.cu && ./t
//   no error N-major B, n32, start 0 columns into the chunk: 0 of 2048 differ; D[1][0..1] 5 6
//   no error N-major B, n32, start 32 columns into the chunk: 0 of 2048 differ; D[1][0..1] 37 38
//   no error N-major B, n32, start 64 columns into the chunk: 2048 of 2048 differ; D[1][0..1] 10 11
//   no error N-major B, n32, start 96 columns into the chunk: 2048 of 2048 differ; D[1][0..1] 42 43
#include <cstdio>
#include <cuda_bf16.h>
#define F(i) "+f"(d[i])
#define G(i) F(i),F(i+1),F(i+2),F(i+3)
#define V __float2bfloat16
__global__ void k(float*o,int off){extern __shared__ char m[];
auto A=(__nv_bfloat16*)((size_t(m)+1023)&~1023ull),B=A+4096;int t=threadIdx.x;
for(int e=t;e<8192;e+=128){int r=e/64,c=e%64,q=e/128,n=e%128,z=n%64;if(e<4096)A[r*64+(c/8^r%8)*8+c%8]=V(c==r);B[n/64*4096+q*64+(z/8^q%8)*8+z%8]=V((q*5+n)%256);}
asm volatile("fence.proxy.async.shared::cta;");__syncthreads();
size_t a=__cvta_generic_to_shared(A),b=__cvta_generic_to_shared(B)+off*2,x=(a&262143)>>4|1ull<<16|1ull<<38|1ull<<62,y=(b&262143)>>4|1ull<<25|1ull<<38|1ull<<62;
float d[16]={};asm volatile("wgmma.fence.sync.aligned;");
for(int j=0;j<4;j++,x+=2,y+=128)asm volatile("{.reg .pred p;setp.ne.b32 p,%18,0;wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15},%16,%17,p,1,1,0,1;}":G(0),G(4),G(8),G(12):"l"(x),"l"(y),"r"(1));
asm volatile("wgmma.commit_group.sync.aligned;wgmma.wait_group.sync.aligned 0;");
int w=t/32,l=t%32;for(int i=0;i<16;i++)o[(16*w+l/4+8*(i/2%2))*32+8*(i/4)+2*(l%4)+i%2]=d[i];}
int main(){float*o,h[2048];cudaMalloc(&o,sizeof h);cudaFuncSetAttribute(k,cudaFuncAttributeMaxDynamicSharedMemorySize,30000);
for(int off=0;off<=96;off+=32){k<<<1,128,30000>>>(o,off);cudaMemcpy(h,o,sizeof h,cudaMemcpyDeviceToHost);int u=0;
for(int e=0;e<2048;e++)u+=h[e]!=(e/32*5+off+e%32)%256;
printf("%s N-major B, n32, start %d columns into the chunk: %d of 2048 differ; D[1][0..1] %g %g\n",cudaGetErrorString(cudaGetLastError()),off,u,h[32],h[33]);}}
