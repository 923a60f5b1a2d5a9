// SPDX-License-Identifier: MIT
/* Wine's d3d11 conformance test (dlls/d3d11/tests/d3d11.c, fetched from Debian's
 * source package at build time) with a driver of our own in place of its START_TEST,
 * so that a run can be split by test function:
 *
 *   d3d11_suite.exe d3d11 [--single] [--only NAME[,NAME...]] [--list]
 *
 * --list prints the test functions in START_TEST's order; --only runs just those.
 * Every function runs as START_TEST would run it (queued per feature level on the
 * worker threads, or called afterwards on the main thread), under a test context
 * naming it, so each of its messages says which function it belongs to, and between
 * the lines "npt-suite: begin NAME" and "npt-suite: end NAME", so a crash or a hang
 * names the functions that were running. */
#define STANDALONE
#define COBJMACROS
/* Wine's headers declare through winbase.h what test.h uses of the console API;
 * mingw-w64's need windows.h. */
#include <windows.h>
#include "wine/test.h"

/* wine/debug.h formats its debug strings (wine_dbgstr_*, used in the test's
 * messages) through this Wine-only ntdll export, which mingw-w64's import library
 * lacks: each thread keeps its last strings in a ring, as long-lived as a message
 * needs them. */
const char * __cdecl __wine_dbg_strdup(const char *str)
{
    static __thread char *ring[64];
    static __thread unsigned int next;
    char **slot = &ring[next++ % ARRAY_SIZE(ring)];

    free(*slot);
    *slot = strdup(str);
    return *slot ? *slot : "(out of memory)";
}

/* Wine's START_TEST body stays in the program, unused: the driver below runs its
 * functions. */
#undef START_TEST
#define START_TEST(name) static void __attribute__((unused)) wine_start_test_##name(void)
#include "dlls/d3d11/tests/d3d11.c"

struct npt_suite_function
{
    const char *name;
    void (*queue)(void);     /* queues the function's entries, as START_TEST does */
    void (*run_direct)(void); /* or: START_TEST calls it after the queue has run */
};

#include "d3d11_functions.h"

#define NPT_FUNCTION_COUNT (sizeof(npt_suite_functions) / sizeof(npt_suite_functions[0]))

/* For each queued entry (mt_tests[i]), the function it belongs to. */
static unsigned int *npt_entry_function;
/* Per function: whether an entry of it has begun, and how many have not ended. */
static LONG *npt_begun, *npt_entries_left;
static const char *npt_only;

static BOOL npt_selected(const char *name)
{
    size_t length = strlen(name);
    const char *p = npt_only;

    if (!npt_only)
        return TRUE;
    while ((p = strstr(p, name)))
    {
        if ((p == npt_only || p[-1] == ',') && (p[length] == ',' || !p[length]))
            return TRUE;
        p += length;
    }
    return FALSE;
}

static void npt_marker(const char *what, const char *name)
{
    winetest_print_lock();
    printf("npt-suite: %s %s\n", what, name);
    winetest_print_unlock();
}

static void npt_run_entry(LONG entry)
{
    unsigned int function = npt_entry_function[entry];
    const char *name = npt_suite_functions[function].name;

    if (!InterlockedExchange(&npt_begun[function], 1))
        npt_marker("begin", name);
    winetest_push_context("%s", name);
    run_mt_test(&mt_tests[entry]);
    winetest_pop_context();
    if (!InterlockedDecrement(&npt_entries_left[function]))
        npt_marker("end", name);
}

static DWORD WINAPI npt_worker(void *next_entry)
{
    LONG entry;

    while ((entry = InterlockedIncrement((LONG *)next_entry) - 1) < (LONG)mt_test_count)
        npt_run_entry(entry);
    return 0;
}

/* The queue runs as run_queued_tests() runs it: one worker per processor unless
 * --single or WINETEST_NO_MT_D3D. */
static void npt_run_queue(void)
{
    LONG next_entry = 0;
    unsigned int thread_count = 1, i;
    HANDLE threads[64];
    SYSTEM_INFO info;

    if (use_mt)
    {
        GetSystemInfo(&info);
        thread_count = min(info.dwNumberOfProcessors, ARRAY_SIZE(threads));
    }
    for (i = 0; i < thread_count; ++i)
    {
        threads[i] = CreateThread(NULL, 0, npt_worker, &next_entry, 0, NULL);
        ok(!!threads[i], "Failed to create worker thread %u.\n", i);
    }
    for (i = 0; i < thread_count; ++i)
    {
        if (!threads[i])
            continue;
        WaitForSingleObject(threads[i], INFINITE);
        CloseHandle(threads[i]);
    }
}

static BOOL npt_parse_arguments(void)
{
    unsigned int argc, i, j;
    char **argv;

    use_mt = !getenv("WINETEST_NO_MT_D3D");
    argc = winetest_get_mainargs(&argv);
    for (i = 2; i < argc; ++i)
    {
        if (!strcmp(argv[i], "--single"))
            use_mt = FALSE;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            npt_only = argv[++i];
        else if (!strcmp(argv[i], "--list"))
        {
            for (j = 0; j < NPT_FUNCTION_COUNT; ++j)
                printf("%s\n", npt_suite_functions[j].name);
            return FALSE;
        }
        else
        {
            ok(0, "Unknown argument %s; arguments: [--single] [--only NAME[,NAME...]] [--list].\n", argv[i]);
            return FALSE;
        }
    }
    return TRUE;
}

void func_d3d11(void)
{
    unsigned int i, queued_before;

    if (!npt_parse_arguments())
        return;

    print_adapter_info();

    npt_begun = calloc(NPT_FUNCTION_COUNT, sizeof(*npt_begun));
    npt_entries_left = calloc(NPT_FUNCTION_COUNT, sizeof(*npt_entries_left));
    for (i = 0; i < NPT_FUNCTION_COUNT; ++i)
    {
        if (!npt_suite_functions[i].queue || !npt_selected(npt_suite_functions[i].name))
            continue;
        queued_before = mt_test_count;
        npt_suite_functions[i].queue();
        npt_entry_function = realloc(npt_entry_function, mt_test_count * sizeof(*npt_entry_function));
        npt_entries_left[i] = mt_test_count - queued_before;
        while (queued_before < mt_test_count)
            npt_entry_function[queued_before++] = i;
        if (!npt_entries_left[i])
            npt_marker("begin", npt_suite_functions[i].name), npt_marker("end", npt_suite_functions[i].name);
    }
    npt_run_queue();

    for (i = 0; i < NPT_FUNCTION_COUNT; ++i)
    {
        if (!npt_suite_functions[i].run_direct || !npt_selected(npt_suite_functions[i].name))
            continue;
        npt_marker("begin", npt_suite_functions[i].name);
        winetest_push_context("%s", npt_suite_functions[i].name);
        npt_suite_functions[i].run_direct();
        winetest_pop_context();
        npt_marker("end", npt_suite_functions[i].name);
    }
}

const struct test winetest_testlist[] =
{
    {"d3d11", func_d3d11},
    {NULL, NULL},
};
