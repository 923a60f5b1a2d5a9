// SPDX-License-Identifier: MIT
/* Runs inside the test VM: finds the ivshmem-plain device (PCI 1af4:1110), enables it,
 * maps its BAR2 through sysfs and proves it is the host's file: it checks the pattern
 * the host wrote before the boot, writes its own for the host to check, and waits for
 * the host's answer written while both run. The layout and the patterns are shared
 * with vm_smoke_test.py (probe_pattern there).
 *
 *   ivshmem_probe SEED SIZE
 *
 * exits 0 when every check passed; otherwise prints what failed and exits 1. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
  GUEST_STATE_OFFSET = 0, /* u32: 1 once the guest's pattern is written */
  HOST_STATE_OFFSET = 4,  /* u32: 1 once the host checked it and wrote its answer */
  GUEST_PATTERN_OFFSET = 64,
  TAG_HOST_BEFORE_BOOT = 1,
  TAG_GUEST = 2,
  TAG_HOST_ANSWER = 3,
  HOST_ANSWER_TIMEOUT_S = 60,
};

static uint32_t pattern_word(uint32_t seed, uint32_t tag, uint64_t word_index) {
  uint32_t x = (uint32_t)(word_index + 1) * 2654435761u ^ (seed * 40503u + tag * 0x9E3779B9u);
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return x;
}

/* Offsets are byte offsets of 4-byte words; the word index is offset / 4. */
static int check_pattern(const volatile uint32_t *region, uint64_t begin, uint64_t end, uint32_t seed, uint32_t tag,
                         const char *what) {
  for (uint64_t offset = begin; offset < end; offset += 4) {
    uint32_t expected = pattern_word(seed, tag, offset / 4);
    uint32_t seen = region[offset / 4];
    if (seen != expected) {
      printf("FAIL %s: word at offset %llu is 0x%08x, expected 0x%08x\n", what, (unsigned long long)offset, seen,
             expected);
      return 0;
    }
  }
  return 1;
}

static int read_hex_file(const char *dir, const char *name, unsigned *value) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *file = fopen(path, "r");
  if (!file)
    return 0;
  int ok = fscanf(file, "%x", value) == 1;
  fclose(file);
  return ok;
}

static int find_device(char *device_dir, size_t capacity) {
  const char *root = "/sys/bus/pci/devices";
  DIR *dir = opendir(root);
  if (!dir)
    return 0;
  int found = 0;
  for (struct dirent *entry; !found && (entry = readdir(dir));) {
    if (entry->d_name[0] == '.')
      continue;
    char candidate[512];
    snprintf(candidate, sizeof candidate, "%s/%s", root, entry->d_name);
    unsigned vendor = 0, device = 0;
    if (read_hex_file(candidate, "vendor", &vendor) && read_hex_file(candidate, "device", &device) &&
        vendor == 0x1af4 && device == 0x1110) {
      snprintf(device_dir, capacity, "%s", candidate);
      printf("device %s vendor 0x%04x device 0x%04x\n", entry->d_name, vendor, device);
      found = 1;
    }
  }
  closedir(dir);
  return found;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s SEED SIZE\n", argv[0]);
    return 2;
  }
  uint32_t seed = (uint32_t)strtoul(argv[1], NULL, 0);
  uint64_t size = strtoull(argv[2], NULL, 0);

  char device_dir[512];
  if (!find_device(device_dir, sizeof device_dir)) {
    printf("FAIL no PCI device 1af4:1110 in /sys/bus/pci/devices\n");
    return 1;
  }
  char path[600];
  snprintf(path, sizeof path, "%s/enable", device_dir);
  int enable = open(path, O_WRONLY);
  if (enable < 0 || write(enable, "1", 1) != 1) {
    printf("FAIL enabling the device through %s\n", path);
    return 1;
  }
  close(enable);

  snprintf(path, sizeof path, "%s/resource2", device_dir);
  int bar = open(path, O_RDWR | O_SYNC);
  struct stat bar_stat;
  if (bar < 0 || fstat(bar, &bar_stat) != 0) {
    printf("FAIL opening %s\n", path);
    return 1;
  }
  printf("bar2 %lld bytes\n", (long long)bar_stat.st_size);
  if ((uint64_t)bar_stat.st_size != size) {
    printf("FAIL BAR2 is %lld bytes, the host's file %llu\n", (long long)bar_stat.st_size, (unsigned long long)size);
    return 1;
  }
  volatile uint32_t *region = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bar, 0);
  if (region == MAP_FAILED) {
    printf("FAIL mmap of %s\n", path);
    return 1;
  }

  uint64_t half = size / 2;
  if (!check_pattern(region, half, size, seed, TAG_HOST_BEFORE_BOOT, "host pattern written before boot"))
    return 1;
  for (uint64_t offset = GUEST_PATTERN_OFFSET; offset < half; offset += 4)
    region[offset / 4] = pattern_word(seed, TAG_GUEST, offset / 4);
  __atomic_store_n(&region[GUEST_STATE_OFFSET / 4], 1u, __ATOMIC_RELEASE);
  printf("guest pattern written\n");
  fflush(stdout);

  time_t deadline = time(NULL) + HOST_ANSWER_TIMEOUT_S;
  while (__atomic_load_n(&region[HOST_STATE_OFFSET / 4], __ATOMIC_ACQUIRE) != 1) {
    if (time(NULL) > deadline) {
      printf("FAIL no answer from the host in %d s\n", HOST_ANSWER_TIMEOUT_S);
      return 1;
    }
    usleep(1000);
  }
  if (!check_pattern(region, half, size, seed, TAG_HOST_ANSWER, "host answer written while the guest ran"))
    return 1;
  printf("ok\n");
  return 0;
}
