// SPDX-License-Identifier: MIT
#pragma once

// A runtime-simulating harness for Triton: it plays Microsoft's D3D11 runtime. It loads
// the driver DLL, opens the adapter through OpenAdapter10_2 with adapter callbacks it
// implements, negotiates versions, creates devices with the core-layer, kernel-thunk
// and DXGI callback tables it owns, allocates every object's private memory from the
// driver's CalcPrivate*Size answers, and maps D3D11 API descriptions onto the DDI
// arguments the way the runtime does (mip lists, DDI bind/CPU/misc flags, cube
// dimensions, semantic -> input register, shaders stripped to tokens plus name-less
// signature entries of the interface's stride).

#include <windows.h>
#include <d3d11_1.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "triton/ddi/ddi.h"

namespace triton::harness {

namespace ddi = triton::ddi;

// The loaded driver DLL.
class Driver {
public:
  ~Driver();
  static HRESULT load(const std::string& path, std::unique_ptr<Driver>& out);
  ddi::PFND3D10DDI_OPENADAPTER openAdapter10_2 = nullptr;

private:
  HMODULE module_ = nullptr;
};

// A runtime's Version word: its build in the high 16 bits, its DXGI level in the low
// (DXGI_RESOLVE_SHARED_RESOURCE for the Windows 7 D3D11.0 runtime, DXGI_OFFER_RECLAIM
// for the D3D11.1 one); the level selects the DXGI table.
constexpr UINT runtimeVersion(UINT build, UINT dxgiLevel) { return (build << 16) | dxgiLevel; }

class Adapter {
public:
  ~Adapter();
  // OpenAdapter10_2 with the D3D11.1 runtime's interface and version.
  HRESULT open(Driver& driver);
  std::vector<UINT64> supportedVersions();   // empty on failure
  HRESULT getCaps(ddi::D3D10_2DDICAPS_TYPE type, void* data, UINT size);

  ddi::D3D10DDI_HADAPTER handle{};
  ddi::D3D10_2DDI_ADAPTERFUNCS funcs{};

private:
  ddi::D3DDDI_ADAPTERCALLBACKS callbacks_{};
  bool open_ = false;
};

// Runtime-owned private memory of one driver object.
template <class Handle>
struct DdiObject {
  std::unique_ptr<uint64_t[]> memory;   // 8-byte aligned, as the runtime's heap
  Handle handle{};
  void* runtimeHandle = nullptr;        // the runtime's handle (hRT*), unique in the process
  explicit operator bool() const { return handle.pDrvPrivate != nullptr; }
};

using Resource = DdiObject<ddi::D3D10DDI_HRESOURCE>;
using RenderTargetView = DdiObject<ddi::D3D10DDI_HRENDERTARGETVIEW>;
using ShaderResourceView = DdiObject<ddi::D3D10DDI_HSHADERRESOURCEVIEW>;
using Shader = DdiObject<ddi::D3D10DDI_HSHADER>;
using ElementLayout = DdiObject<ddi::D3D10DDI_HELEMENTLAYOUT>;
using BlendState = DdiObject<ddi::D3D10DDI_HBLENDSTATE>;
using RasterizerState = DdiObject<ddi::D3D10DDI_HRASTERIZERSTATE>;
using DepthStencilState = DdiObject<ddi::D3D10DDI_HDEPTHSTENCILSTATE>;
using Query = DdiObject<ddi::D3D10DDI_HQUERY>;
using SamplerState = DdiObject<ddi::D3D10DDI_HSAMPLER>;
using DepthStencilView = DdiObject<ddi::D3D10DDI_HDEPTHSTENCILVIEW>;
using UnorderedAccessView = DdiObject<ddi::D3D11DDI_HUNORDEREDACCESSVIEW>;
using CommandList = DdiObject<ddi::D3D11DDI_HCOMMANDLIST>;

enum class ShaderStage { Vertex, Pixel, Compute, Geometry, Hull, Domain };

// What the runtime hands a driver for a shader: the token stream and the signature
// entries of the interface's stride.
struct StrippedShader {
  ShaderStage stage{};        // from the version token
  std::vector<uint32_t> tokens;
  std::vector<ddi::D3D10DDIARG_SIGNATURE_ENTRY> input10, output10, patch10;
  std::vector<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2> input11_1, output11_1, patch11_1;
  bool dropEntries = false;   // the runtime omits entries in some cases
};
bool stripShader(std::span<const uint8_t> container, StrippedShader& out);

// The kernel side of shared resources, played by the harness for the whole process (as
// the kernel does for every process): pfnAllocateCb keeps a kernel resource - its
// resource-level private data and its allocations' - under new kernel handles, and
// pfnDeallocateCb with the runtime's resource handle drops it.
struct KernelResource {
  ddi::D3DKMT_HANDLE handle = 0;
  const void* runtimeResource = nullptr;
  std::vector<uint8_t> resourceData;
  std::vector<ddi::D3DKMT_HANDLE> allocations;
  std::vector<std::vector<uint8_t>> allocationData;
};
// The kernel resource the driver allocated for a resource (false: none).
bool kernelResourceOf(const Resource& resource, KernelResource* out);
size_t kernelResourceCount();

// A test that plays the kernel itself (triton/kernel's fake kernel): the non-null members
// of *overrides replace the harness's kernel-thunk callbacks in devices created from now
// on; null restores the harness's own. Calls to them are not "unexpected".
void setKernelCallbackOverrides(const ddi::D3DDDI_DEVICECALLBACKS* overrides);

// The adapter's software key (the INF's HKR values), as the runtime's pfnQueryAdapterInfoCb2
// registry query reads it (D3DDDI_QUERYREGISTRY_ADAPTERKEY, REG_SZ): value `name` becomes
// `value` for every query from now on; an empty value removes it (the query then answers
// D3DDDI_QUERYREGISTRY_STATUS_FAIL, as for a value the key does not hold).
void setAdapterRegistryString(const std::wstring& name, const std::wstring& value);

class DeferredContext;

class Device {
public:
  ~Device();
  // CalcPrivateDeviceSize + CreateDevice for one interface version at one pipeline level.
  HRESULT create(Adapter& adapter, UINT interfaceVersion, UINT version, ddi::D3D11DDI_3DPIPELINELEVEL level);
  void destroy();

  // WDDM 1.3 and 2.0 devices are 11.1 devices too: their tables start with the 11.1 table.
  bool is11_1() const {
    return interfaceVersion_ == ddi::D3D11_1_DDI_INTERFACE_VERSION || isWddm1_3() || isWddm2_x();
  }
  bool isWddm1_3() const { return interfaceVersion_ == ddi::D3DWDDM1_3_DDI_INTERFACE_VERSION; }
  bool isWddm2_0() const { return interfaceVersion_ == ddi::D3DWDDM2_0_DDI_INTERFACE_VERSION; }
  bool isWddm2_1() const { return interfaceVersion_ == ddi::D3DWDDM2_1_DDI_INTERFACE_VERSION; }
  bool isWddm2_x() const { return isWddm2_0() || isWddm2_1(); }
  ddi::D3D10DDI_HDEVICE handle() const { return handle_; }
  ddi::D3D11DDI_DEVICEFUNCS funcs11{};
  // For a WDDM 1.3 device: funcsWddm1_3 is the table the driver filled, funcs11_1 a copy
  // of its 11.1 prefix (so the 11.1 helpers work) without the two members the 1.3 table
  // retypes (pfnRelocateDeviceFuncs, pfnCheckMultisampleQualityLevels: call them through
  // funcsWddm1_3).
  ddi::D3D11_1DDI_DEVICEFUNCS funcs11_1{};
  ddi::D3DWDDM1_3DDI_DEVICEFUNCS funcsWddm1_3{};
  // For a WDDM 2.0 device: funcsWddm2_0 is the table the driver filled; funcs11_1 its
  // 11.1 prefix with the twelve retyped members adapted as the runtime calls them for
  // the API (plane 0, every engine, no conservative rasterization: harness/src/wddm2_0.cpp),
  // except pfnRelocateDeviceFuncs and pfnCheckMultisampleQualityLevels (null there).
  // For a WDDM 2.1 device: funcsWddm2_1 is the table the driver filled, funcsWddm2_0 a
  // copy of its 2.0 prefix (pfnRelocateDeviceFuncs null: its type differs) and funcs11_1
  // as for 2.0.
  ddi::D3DWDDM2_0DDI_DEVICEFUNCS funcsWddm2_0{};
  ddi::D3DWDDM2_1DDI_DEVICEFUNCS funcsWddm2_1{};
  // The DXGI table the (interface, version) pair selects; the others stay zero.
  ddi::DXGI_DDI_BASE_FUNCTIONS dxgi1_0{};
  ddi::DXGI1_1_DDI_BASE_FUNCTIONS dxgi1_1{};
  ddi::DXGI1_2_DDI_BASE_FUNCTIONS dxgi1_2{};
  ddi::DXGI1_3_DDI_BASE_FUNCTIONS dxgi1_3{};
  ddi::DXGI1_4_DDI_BASE_FUNCTIONS dxgi1_4{};
  ddi::DXGI1_5_DDI_BASE_FUNCTIONS dxgi1_5{};

  // pfnSetErrorCb calls since the last take (S_OK if none).
  HRESULT takeError();
  size_t errorCount() const { return errors_.size(); }

  // pfnPresentCb (the DXGI callback a driver's Present ends with): calls so far and the
  // last call's arguments.
  void recordPresent(const ddi::DXGIDDICB_PRESENT& args) { ++presentCallbacks_; lastPresent_ = args; }
  size_t presentCallbacks() const { return presentCallbacks_; }
  const ddi::DXGIDDICB_PRESENT& lastPresent() const { return lastPresent_; }

  // API-shaped helpers, mapped onto the DDI as the runtime maps them.
  Resource createTexture2D(const D3D11_TEXTURE2D_DESC& desc, const D3D11_SUBRESOURCE_DATA* initial = nullptr);
  Resource createBuffer(const D3D11_BUFFER_DESC& desc, const D3D11_SUBRESOURCE_DATA* initial = nullptr);
  // Creates into memory the caller provides (handle reuse after destroy).
  void createTexture2DAt(Resource& into, const D3D11_TEXTURE2D_DESC& desc);
  void createBufferAt(Resource& into, const D3D11_BUFFER_DESC& desc, const D3D11_SUBRESOURCE_DATA* initial);
  void destroyResource(Resource& resource);
  // OpenResource of a kernel resource (what the runtime does for OpenSharedResource on
  // another device): its private data as the creating driver left it.
  Resource openResource(const KernelResource& shared);
  RenderTargetView createRenderTargetView(const Resource& texture, DXGI_FORMAT format);
  // Views of a single-level, single-slice 2D texture.
  ShaderResourceView createShaderResourceView(const Resource& texture, DXGI_FORMAT format);
  DepthStencilView createDepthStencilView(const Resource& texture, DXGI_FORMAT format);
  UnorderedAccessView createUnorderedAccessView(const Resource& texture, DXGI_FORMAT format);
  SamplerState createSampler(const D3D11_SAMPLER_DESC& desc);
  Shader createShader(ShaderStage stage, const StrippedShader& shader);
  // Stream output from a geometry shader, or from a vertex shader's code (what the
  // runtime passes for CreateGeometryShaderWithStreamOutput on vertex shader bytecode).
  Shader createGeometryShaderWithStreamOutput(const StrippedShader& shader,
                                              std::span<const ddi::D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY> entries,
                                              std::span<const UINT> strides, UINT rasterizedStream);
  ElementLayout createElementLayout(std::span<const D3D11_INPUT_ELEMENT_DESC> elements,
                                    std::span<const uint8_t> vertexShaderContainer);
  RasterizerState createRasterizerState(const D3D11_RASTERIZER_DESC& desc);
  BlendState createBlendState(const D3D11_BLEND_DESC& desc);
  DepthStencilState createDepthStencilState(const D3D11_DEPTH_STENCIL_DESC& desc);
  Query createQuery(ddi::D3D10DDI_QUERY type);

  void destroy(RenderTargetView& view);
  void destroy(Shader& shader);
  void destroy(ElementLayout& layout);
  void destroy(RasterizerState& state);
  void destroy(BlendState& state);
  void destroy(DepthStencilState& state);
  void destroy(Query& query);
  void destroy(ShaderResourceView& view);
  void destroy(DepthStencilView& view);
  void destroy(UnorderedAccessView& view);
  void destroy(SamplerState& sampler);

  // Context calls that differ between the two tables.
  void setConstantBuffers(ShaderStage stage, UINT start, std::span<const ddi::D3D10DDI_HRESOURCE> buffers);
  void updateSubresourceUP(const Resource& resource, UINT subresource, const void* data, UINT rowPitch,
                           UINT depthPitch);
  void copyRegion(const Resource& dst, UINT dstSub, UINT x, UINT y, const Resource& src, UINT srcSub);

  // Driver command lists: a deferred context's recording, finished (pfnCreateCommandList
  // on the device, naming the context) and destroyed.
  CommandList createCommandList(DeferredContext& context);
  void destroy(CommandList& list);

private:
  friend class DeferredContext;
  void fillCallbacks();

  UINT interfaceVersion_ = 0;
  std::unique_ptr<uint64_t[]> deviceMemory_;
  ddi::D3D10DDI_HDEVICE handle_{};
  ddi::D3D11DDI_CORELAYER_DEVICECALLBACKS coreCallbacks_{};
  // What a WDDM 2.0 runtime passes: the D3D11 callbacks and the two engine-context
  // creation callbacks (Triton creates no context: calls to them are unexpected).
  ddi::D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS coreCallbacksWddm2_0_{};
  ddi::D3DDDI_DEVICECALLBACKS kernelCallbacks_{};
  ddi::DXGI_DDI_BASE_CALLBACKS dxgiCallbacks_{};
  std::vector<HRESULT> errors_;
  size_t presentCallbacks_ = 0;
  ddi::DXGIDDICB_PRESENT lastPresent_{};
};

// A driver deferred context (pfnCreateDeferredContext): its own handle, function table
// and error callback (hRTCoreLayer names it), the device's other callbacks.
class DeferredContext {
public:
  ~DeferredContext() { destroy(); }
  HRESULT create(Device& device);
  void destroy();
  bool is11_1() const { return is11_1_; }
  ddi::D3D10DDI_HDEVICE handle() const { return handle_; }
  HRESULT takeError();
  ddi::D3D11DDI_DEVICEFUNCS funcs11{};
  ddi::D3D11_1DDI_DEVICEFUNCS funcs11_1{};
  ddi::D3DWDDM1_3DDI_DEVICEFUNCS funcsWddm1_3{};   // as Device's
  ddi::D3DWDDM2_0DDI_DEVICEFUNCS funcsWddm2_0{};   // as Device's
  ddi::D3DWDDM2_1DDI_DEVICEFUNCS funcsWddm2_1{};   // as Device's

private:
  bool is11_1_ = false;
  bool isWddm1_3_ = false;
  bool isWddm2_0_ = false;
  bool isWddm2_1_ = false;
  std::unique_ptr<uint64_t[]> memory_;
  ddi::D3D10DDI_HDEVICE handle_{};
  ddi::D3D11DDI_CORELAYER_DEVICECALLBACKS callbacks_{};
  std::vector<HRESULT> errors_;
};

// Dynamic linkage as the runtime resolves it for *SetShaderWithIfaces. The application
// binds, per interface slot, a class instance: a class type name (from the shader's IFCE
// chunk; CreateClassInstance) or a shader-declared instance (GetClassInstance), with the
// location of its data. The driver gets, per slot, the function table that class selects
// in that slot and the data location packed as D3D11DDIARG_POINTERDATA.
struct ClassInstanceDesc {
  std::string typeName;           // empty: no instance in this slot
  UINT constantBuffer = 0;
  UINT constantVectorOffset = 0;
  UINT texture = 0;
  UINT sampler = 0;
};
struct InterfaceArguments {
  std::vector<UINT> tables;
  std::vector<ddi::D3D11DDIARG_POINTERDATA> data;
};
// False if the container has no IFCE chunk, a class type is unknown or a slot does not
// accept it. An empty slot gets table 0 and no data (the shader must not call it).
bool interfaceArguments(std::span<const uint8_t> container, std::span<const ClassInstanceDesc> instances,
                        InterfaceArguments& out);
// The instance the shader declares under `name` (GetClassInstance; index into an array
// of instances is not modelled): false if the IFCE chunk has none.
bool declaredClassInstance(std::span<const uint8_t> container, const std::string& name, ClassInstanceDesc& out);

// Calls the driver made to kernel-thunk, adapter or DXGI callbacks other than the
// allocation pair and pfnPresentCb: Triton submits nothing else to a kernel driver, so
// any such call is unexpected.
long unexpectedCallbackCount();


// Every function-table entry of a table, as raw pointers (for completeness checks).
template <class Table>
std::vector<const void*> tableEntries(const Table& table) {
  static_assert(sizeof(Table) % sizeof(void*) == 0);
  std::vector<const void*> out(sizeof(Table) / sizeof(void*));
  std::memcpy(out.data(), &table, sizeof(Table));
  return out;
}

}  // namespace triton::harness

// Calls a device function whose type is the same in both tables.
#define TRITON_DDI(device, member) ((device).is11_1() ? (device).funcs11_1.member : (device).funcs11.member)
