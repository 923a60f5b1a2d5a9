// SPDX-License-Identifier: MIT
#pragma once

// What each entry of the device and DXGI tables does, for the ones that are not a
// plain translation: the list the entry-status test prints and checks, so that no
// table member is silently ignored. An entry absent from this list is
// translated onto the target's API.

#include <span>

namespace triton::driver {

enum class EntryStatus {
  Translated,    // onto the equivalent API call
  Partial,       // translated, except the cases named in the reason (those report E_NOTIMPL)
  NothingToDo,   // the entry asks for nothing the target needs (the reason says why)
  Unsupported,   // reports E_NOTIMPL (through pfnSetErrorCb or its HRESULT), with the reason
  NotOffered,    // a member of a newer runtime's table: this interface leaves it null
};

struct EntryNote {
  const char* member;   // the table member, e.g. "pfnOpenResource"
  EntryStatus status;
  const char* reason;
  // The tables the note is about: those whose name starts with this (null: every table
  // with the member). A table-specific note comes before the general one it overrides.
  const char* tables = nullptr;
};

// The note of `member` in `table` (null: none, a plain translation).
const EntryNote* entryNoteFor(const char* table, const char* member);

std::span<const EntryNote> entryNotes();
const char* entryStatusName(EntryStatus status);

}  // namespace triton::driver
