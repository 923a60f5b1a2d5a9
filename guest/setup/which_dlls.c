// SPDX-License-Identifier: MIT
/* Prints which d3d11.dll/dxgi.dll a program in this prefix loads: "d3d11=neptune" when
   d3d11.dll exports the DXGI entry points (only Neptune's does: its DXGI objects live in
   d3d11.dll), "dxgi=neptune" when dxgi.dll's CreateDXGIFactory2 resolves into that
   d3d11.dll (Neptune's dxgi.dll forwards there). Used by setup_test.sh. */
#include <stdio.h>
#include <windows.h>

int main(void) {
  HMODULE d3d11 = LoadLibraryA("d3d11.dll");
  HMODULE dxgi = LoadLibraryA("dxgi.dll");
  if (!d3d11 || !dxgi) {
    printf("load-failed\n");
    return 1;
  }
  FARPROC ours = GetProcAddress(d3d11, "CreateDXGIFactory2");
  FARPROC factory = GetProcAddress(dxgi, "CreateDXGIFactory2");
  HMODULE owner = NULL;
  GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                     (LPCSTR)factory, &owner);
  printf("d3d11=%s dxgi=%s\n", ours ? "neptune" : "builtin", ours && owner == d3d11 ? "neptune" : "builtin");
  return 0;
}
