// SPDX-License-Identifier: MIT
// Sample 7: occlusion queries and predication. An occluder hides one quad
// completely and another one partly; occlusion queries count their visible
// samples (checked exactly: the edges lie on pixel boundaries), and two
// occlusion predicates gate marker draws: the hidden quad's marker must be
// skipped, the visible one's drawn.

#include "sample.h"
#include "occlusion_hlsl.h"

#include <cstdio>
#include <cstring>

namespace npt::samples {

  namespace {

    constexpr float ClearColour[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    constexpr Rgba8 MarkerRgba = { 0, 255, 0, 255 };
    constexpr Rgba8 OccluderRgba = { 128, 128, 128, 255 };

    struct RectConstants {
      float bounds[4];
      float colour[4];
      float depth;
      float pad[3];
    };

    // Wine 8's wined3d does not implement predicated rendering (it logs
    // "Predicated rendering not implemented" and draws anyway). The samples'
    // reference backend is Wine's d3d11, so under Wine the check expects the
    // draw; NPT_SAMPLES_PREDICATION=honoured|ignored overrides the guess for
    // other backends (e.g. DXVK behind Neptune).
    bool predicationHonoured() {
      char value[32] = {};
      if (GetEnvironmentVariableA("NPT_SAMPLES_PREDICATION", value, sizeof(value)))
        return std::strcmp(value, "ignored") != 0;
      HMODULE ntdll = GetModuleHandleA("ntdll.dll");
      bool wine = ntdll && GetProcAddress(ntdll, "wine_get_version");
      return !wine;
    }

    class OcclusionSample final : public Sample {
    public:
      const char* name() const override { return "occlusion"; }

      Status init(SampleContext& sc) override {
        if (sc.width % 8 || sc.height % 8)
          return Status::fail("the occlusion sample needs a --size divisible by 8 (exact sample counts)");

        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_rect", m_vs));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_rect", m_ps));

        NPT_CHECK_STATUS(sc.createDepthBuffer(DXGI_FORMAT_D24_UNORM_S8_UINT, m_depth, m_depthView));

        D3D11_DEPTH_STENCIL_DESC depthState = {};
        depthState.DepthEnable = TRUE;
        depthState.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
        depthState.DepthFunc = D3D11_COMPARISON_LESS_EQUAL;
        NPT_CHECK_HR(sc.device->CreateDepthStencilState(&depthState, m_depthState.put()));

        D3D11_QUERY_DESC query = { D3D11_QUERY_OCCLUSION, 0 };
        NPT_CHECK_HR(sc.device->CreateQuery(&query, m_hiddenCount.put()));
        NPT_CHECK_HR(sc.device->CreateQuery(&query, m_visibleCount.put()));
        D3D11_QUERY_DESC predicate = { D3D11_QUERY_OCCLUSION_PREDICATE, 0 };
        NPT_CHECK_HR(sc.device->CreatePredicate(&predicate, m_hiddenPredicate.put()));
        NPT_CHECK_HR(sc.device->CreatePredicate(&predicate, m_visiblePredicate.put()));

        D3D11_BUFFER_DESC cbDesc = { sizeof(RectConstants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        sc.context->ClearRenderTargetView(sc.targetView, ClearColour);
        sc.context->ClearDepthStencilView(m_depthView.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
        sc.context->OMSetRenderTargets(1, &sc.targetView, m_depthView.get());
        sc.context->OMSetDepthStencilState(m_depthState.get(), 0);
        sc.setFullViewport();
        sc.context->IASetInputLayout(nullptr);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        sc.context->VSSetShader(m_vs.get(), nullptr, 0);
        sc.context->VSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->PSSetShader(m_ps.get(), nullptr, 0);
        sc.context->PSSetConstantBuffers(0, 1, m_constants.addressOf());

        // Vertical positions move with the frame in steps of 1/8 of the height (pixel exact).
        float shift = 0.25f * float(frame % 3);
        drawRect(sc, { { -0.5f, -0.75f, 0.5f, 0.75f }, { 0.5f, 0.5f, 0.5f, 1.0f }, 0.2f });

        // Hidden: entirely behind the occluder.
        const RectConstants hidden = { { -0.25f, -0.5f + shift, 0.25f, 0.0f + shift }, { 1.0f, 0.0f, 0.0f, 1.0f }, 0.5f };
        measure(sc, hidden, m_hiddenCount.get(), m_hiddenPredicate.get());

        // Partly visible: x in [-0.75, -0.5] sticks out left of the occluder.
        const RectConstants visible = { { -0.75f, -0.5f + shift, -0.25f, 0.0f + shift }, { 0.0f, 0.0f, 1.0f, 1.0f }, 0.5f };
        measure(sc, visible, m_visibleCount.get(), m_visiblePredicate.get());

        // Markers at the top corners, each predicated on one quad being visible:
        // rendering is skipped when the predicate equals FALSE (no samples).
        const RectConstants marker = { { 0.0f, 0.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f, 1.0f }, 0.0f };
        RectConstants left = marker, right = marker;
        left.bounds[0] = -1.0f; left.bounds[1] = 0.75f; left.bounds[2] = -0.75f; left.bounds[3] = 1.0f;
        right.bounds[0] = 0.75f; right.bounds[1] = 0.75f; right.bounds[2] = 1.0f; right.bounds[3] = 1.0f;
        // The constants are updated outside the predicated region: predication
        // also skips UpdateSubresource.
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &left, 0, 0);
        sc.context->SetPredication(m_hiddenPredicate.get(), FALSE);
        sc.context->Draw(4, 0);
        sc.context->SetPredication(nullptr, FALSE);
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &right, 0, 0);
        sc.context->SetPredication(m_visiblePredicate.get(), FALSE);
        sc.context->Draw(4, 0);
        sc.context->SetPredication(nullptr, FALSE);

        NPT_CHECK_STATUS(waitFor(sc, m_hiddenCount.get(), &m_hiddenSamples, sizeof(m_hiddenSamples), "GetData(hidden quad occlusion query)"));
        NPT_CHECK_STATUS(waitFor(sc, m_visibleCount.get(), &m_visibleSamples, sizeof(m_visibleSamples), "GetData(visible quad occlusion query)"));
        NPT_CHECK_STATUS(readPredicate(sc, m_hiddenPredicate.get(), m_hiddenResult, "GetData(hidden quad predicate)"));
        NPT_CHECK_STATUS(readPredicate(sc, m_visiblePredicate.get(), m_visibleResult, "GetData(visible quad predicate)"));
        if (!sc.options.quiet) {
          std::printf("occlusion: hidden quad %llu samples, visible quad %llu samples\n",
            static_cast<unsigned long long>(m_hiddenSamples), static_cast<unsigned long long>(m_visibleSamples));
        }
        return Status::ok();
      }

      void check(const SampleContext& sc, uint32_t, FrameCheck& check) override {
        uint64_t expected = uint64_t(sc.width / 8) * (sc.height / 4);
        char text[128];
        std::snprintf(text, sizeof(text), "hidden quad: occlusion query counted %llu samples, expected 0",
          static_cast<unsigned long long>(m_hiddenSamples));
        check.expect(m_hiddenSamples == 0, text);
        std::snprintf(text, sizeof(text), "partly visible quad: occlusion query counted %llu samples, expected %llu",
          static_cast<unsigned long long>(m_visibleSamples), static_cast<unsigned long long>(expected));
        check.expect(m_visibleSamples == expected, text);
        check.expect(!m_hiddenResult, "hidden quad's occlusion predicate is TRUE");
        check.expect(m_visibleResult, "visible quad's occlusion predicate is FALSE");

        if (predicationHonoured()) {
          check.expectPixel(0.05f, 0.05f, { 0, 0, 0, 255 }, 0, "marker predicated on the hidden quad was skipped");
        } else {
          check.expectPixel(0.05f, 0.05f, MarkerRgba, 0,
            "backend ignores predication (wined3d in Wine 8), so the hidden quad's marker is drawn");
        }
        check.expectPixel(0.95f, 0.05f, MarkerRgba, 0, "marker predicated on the visible quad was drawn");
        check.expectPixel(0.5f, 0.5f, OccluderRgba, 0, "occluder in the centre");
      }

    private:
      void drawRect(SampleContext& sc, const RectConstants& rect) {
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &rect, 0, 0);
        sc.context->Draw(4, 0);
      }

      // The query and the predicate each get their own draw of the same rect
      // (LESS_EQUAL lets the second draw pass where the first did) rather than
      // nesting, because Wine 8 never completes a predicate nested in a query.
      void measure(SampleContext& sc, const RectConstants& rect, ID3D11Query* count, ID3D11Predicate* predicate) {
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &rect, 0, 0);
        sc.context->Begin(count);
        sc.context->Draw(4, 0);
        sc.context->End(count);
        sc.context->Begin(predicate);
        sc.context->Draw(4, 0);
        sc.context->End(predicate);
      }

      // Queries are asynchronous; the sample needs their answers every frame.
      Status waitFor(SampleContext& sc, ID3D11Asynchronous* query, void* data, UINT size, const char* what) {
        for (uint32_t attempt = 0; attempt < 1000000; attempt++) {
          HRESULT hr = sc.context->GetData(query, data, size, 0);
          if (hr == S_OK)
            return Status::ok();
          if (FAILED(hr))
            return Status::hresult(what, hr);
          Sleep(0);
        }
        return Status::fail(std::string(what) + ": result never became available");
      }

      // A predicate's result is a BOOL on Windows, but Wine 8 reports the
      // underlying occlusion query's size (8) and rejects a BOOL-sized read,
      // so read GetDataSize() bytes and treat any non-zero value as TRUE.
      Status readPredicate(SampleContext& sc, ID3D11Predicate* predicate, bool& result, const char* what) {
        UINT64 value = 0;
        UINT size = predicate->GetDataSize();
        if (size == 0 || size > sizeof(value))
          return Status::fail(std::string(what) + ": unexpected GetDataSize()");
        NPT_CHECK_STATUS(waitFor(sc, predicate, &value, size, what));
        result = value != 0;
        return Status::ok();
      }

      ComPtr<ID3D11VertexShader>      m_vs;
      ComPtr<ID3D11PixelShader>       m_ps;
      ComPtr<ID3D11Texture2D>         m_depth;
      ComPtr<ID3D11DepthStencilView>  m_depthView;
      ComPtr<ID3D11DepthStencilState> m_depthState;
      ComPtr<ID3D11Query>             m_hiddenCount, m_visibleCount;
      ComPtr<ID3D11Predicate>         m_hiddenPredicate, m_visiblePredicate;
      ComPtr<ID3D11Buffer>            m_constants;
      UINT64                          m_hiddenSamples = 0, m_visibleSamples = 0;
      bool                            m_hiddenResult = false, m_visibleResult = false;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::OcclusionSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
