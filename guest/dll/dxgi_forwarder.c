// SPDX-License-Identifier: MIT
/* dxgi.dll holds no code: its exports forward to d3d11.dll (dll/dxgi.def). A DLL
   needs at least one object file; this is it. */
int npt_dxgi_forwarder_marker;
