#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Consistency of triton.inf (it cannot be installed here: no Windows, no kernel-mode half).

Checks what a reader of the INF relies on: every section a directive names exists; every
file copied is listed for every platform the [Manufacturer] line decorates; the four
UserModeDriverName(Wow) entries are files the package copies, with Triton's DLL in every
place after the D3D9 one (D3D10 second, D3D11 third, a fourth copy); every %string% used is defined; the device is
virtio-gpu. Usage: check_inf.py triton.inf
"""
import re
import sys


def parse(path):
    sections, order, current = {}, [], None
    with open(path, encoding="ascii") as f:
        for raw in f:
            line = raw.split(";", 1)[0].strip()
            if not line:
                continue
            match = re.fullmatch(r"\[([^\]]+)\]", line)
            if match:
                current = match.group(1)
                if current.lower() in (s.lower() for s in sections):
                    raise SystemExit("section [%s] appears twice" % current)
                sections[current] = []
                order.append(current)
                continue
            if current is None:
                raise SystemExit("a line outside any section: %s" % line)
            sections[current].append(line)
    return sections


def entries(lines):
    """key = value lines as (key, [values])."""
    out = []
    for line in lines:
        key, _, value = line.partition("=")
        out.append((key.strip(), [v.strip() for v in value.split(",")] if value else []))
    return out


def main():
    sections = parse(sys.argv[1])
    lower = {name.lower(): name for name in sections}
    errors = []

    def need(name, why):
        if name.lower() not in lower:
            errors.append("[%s] (%s) is missing" % (name, why))
            return []
        return sections[lower[name.lower()]]

    strings = dict((k, v) for k, v in entries(need("Strings", "strings")))
    text = open(sys.argv[1], encoding="ascii").read()
    for used in set(re.findall(r"%([A-Za-z_.][A-Za-z0-9_.]*)%", text)):
        if used not in strings:
            errors.append("%%%s%% is used but not defined in [Strings]" % used)

    manufacturer = entries(need("Manufacturer", "models"))
    platforms, install_sections = [], set()
    for _, values in manufacturer:
        model, decorations = values[0], values[1:]
        platforms += [d[2:].lower() for d in decorations if d.lower().startswith("nt")]
        for decoration in decorations:
            for key, device in entries(need(model + "." + decoration, "models of " + decoration)):
                install_sections.add(device[0])
                if not any(hw.upper().startswith("PCI\\VEN_1AF4&DEV_1050") for hw in device[1:]):
                    errors.append("%s: the device is not virtio-gpu (PCI\\VEN_1AF4&DEV_1050)" % key)
    if sorted(platforms) != ["amd64", "arm64"]:
        errors.append("platforms %s, expected amd64 and arm64" % platforms)

    copied = set()
    for install in install_sections:
        directives = entries(need(install, "install section"))
        for key, values in directives:
            if key.lower() == "copyfiles":
                for files in values:
                    copied |= {line.lower() for line in need(files, "CopyFiles")}
            if key.lower() == "addreg":
                for reg in values:
                    need(reg, "AddReg")
        for key, values in entries(need(install + ".Services", "services")):
            if key.lower() == "addservice":
                need(values[2], "AddService")
    for platform in platforms:
        listed = {k.lower() for k, _ in entries(need("SourceDisksFiles." + platform, "files of " + platform))}
        for missing in sorted(copied - listed):
            errors.append("%s is copied but not in [SourceDisksFiles.%s]" % (missing, platform))

    registry = [line for name in sections if name.lower().endswith("softwaredevicesettings") for line in sections[name]]
    names = {}
    for line in registry:
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 4 and parts[0] == "HKR":
            names[parts[2]] = parts[4:]
    for value, dll in (("UserModeDriverName", "triton_umd.dll"), ("UserModeDriverNameWow", "triton_umd32.dll")):
        listed = names.get(value)
        if not listed or len(listed) != 4:
            errors.append("%s must list four DLLs (D3D9, D3D10, D3D11, a fourth copy): %s" % (value, listed))
            continue
        for place, entry in zip(("D3D9", "D3D10", "D3D11", "fourth"), listed):
            file = entry.replace("%13%\\", "").lower()
            if file not in copied:
                errors.append("%s's %s DLL %s is not copied" % (value, place, entry))
            if place != "D3D9" and file != dll:
                errors.append("%s's %s DLL is %s, not Triton's %s" % (value, place, entry, dll))

    # The transport Triton reads from the adapter key (kernel_transport.cpp, "TritonTransport").
    if names.get("TritonTransport") != ["kernel"]:
        errors.append("TritonTransport must be 'kernel' in the software key: %s" % names.get("TritonTransport"))

    for error in errors:
        print("triton.inf: " + error)
    if errors:
        return 1
    print("triton.inf: %d sections, platforms %s, %d files copied, user-mode drivers %s / %s"
          % (len(sections), ", ".join(platforms), len(copied), names["UserModeDriverName"][1],
             names["UserModeDriverNameWow"][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
