/* topo.c - see topo.h. */
#include "nld/topo.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define NVIDIA_VENDOR 0x10de

/* hwloc dlopens its plugins (hwloc_pci.so, and through it libpciaccess;
 * hwloc_cuda.so, ...) in hwloc_topology_init and dlcloses them when the last
 * topology is destroyed. libpciaccess keeps memory in its globals that it
 * never frees; once the library is unmapped, LeakSanitizer reports that
 * memory as leaked (from an "<unknown module>"), failing every sanitizer
 * run. So the plugins loaded now are kept loaded for the life of the process
 * (RTLD_NOLOAD | RTLD_NODELETE loads nothing new), and that memory stays
 * reachable. Paths are collected first: no dlopen inside dl_iterate_phdr. */
#define PIN_MAX 32
typedef struct {
    int n;
    char path[PIN_MAX][512];
} pin_list;

static int pin_collect(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    pin_list *l = arg;
    const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    if (base && strncmp(base, "/hwloc_", 7) == 0 && l->n < PIN_MAX &&
        strlen(info->dlpi_name) < sizeof l->path[0])
        strcpy(l->path[l->n++], info->dlpi_name);
    return 0;
}

static void pin_plugins(void)
{
    static pin_list l; /* static: 16 KB, once */
    dl_iterate_phdr(pin_collect, &l);
    for (int i = 0; i < l.n; i++) dlopen(l.path[i], RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

static pthread_once_t pin_once = PTHREAD_ONCE_INIT;

/* Cores are hwloc Core objects; on a platform that reports none, each PU
 * counts as a core. */
static hwloc_obj_type_t core_type(hwloc_topology_t topo)
{
    int d = hwloc_get_type_depth(topo, HWLOC_OBJ_CORE);
    return d >= 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
}

/* Objects of a type whose cpuset meets set. */
static int count_meeting(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_cpuset_t set)
{
    int n = 0;
    for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(topo, type, o));)
        if (o->cpuset && hwloc_bitmap_intersects(o->cpuset, set)) n++;
    return n;
}

static int nbobjs(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);
    return n > 0 ? n : 0;
}

/* 1 when the GPU got a model name from hwloc, 0 when only its device id */
static int gpu_fill(hwloc_topology_t topo, hwloc_obj_t pci, mnw_topo_gpu *g)
{
    const struct hwloc_pcidev_attr_s *a = &pci->attr->pcidev;
    const char *model = NULL;
    /* OS devices of the cuda and nvml plugins carry the model name */
    for (hwloc_obj_t c = pci->io_first_child; c && !model; c = c->next_sibling)
        if (c->type == HWLOC_OBJ_OS_DEVICE) model = hwloc_obj_get_info_by_name(c, "GPUModel");
    if (!model) model = hwloc_obj_get_info_by_name(pci, "PCIDevice");
    if (model && model[0])
        snprintf(g->name, sizeof g->name, "%s", model);
    else
        snprintf(g->name, sizeof g->name, "NVIDIA PCI device %04x", (unsigned)a->device_id);
    snprintf(g->busid, sizeof g->busid, "%04x:%02x:%02x.%01x", (unsigned)a->domain, (unsigned)a->bus,
             (unsigned)a->dev, (unsigned)a->func);
    g->device_id = a->device_id;
    hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(topo, pci);
    g->numa = -1;
    g->numa_list[0] = '\0';
    if (anc && anc->nodeset && !hwloc_bitmap_iszero(anc->nodeset)) {
        if (hwloc_bitmap_weight(anc->nodeset) == 1) g->numa = hwloc_bitmap_first(anc->nodeset);
        hwloc_bitmap_list_snprintf(g->numa_list, sizeof g->numa_list, anc->nodeset);
    }
    g->cpuset = hwloc_bitmap_dup(anc && anc->cpuset ? anc->cpuset : hwloc_topology_get_complete_cpuset(topo));
    return model && model[0];
}

/* One load; pci_names: let hwloc's pci plugin name the PCI devices it keeps.
 * *unnamed: set when an NVIDIA GPU found has no model name. */
static int load(mnw_topo *t, int pci_names, int *unnamed, mnw_err *e)
{
    memset(t, 0, sizeof *t);
    /* hwloc writes its own complaints to stderr (e.g. no /sys in a minimal
     * container); mnw's stderr is one line per error, and what hwloc
     * could not find shows in the topology line of the log. Only before
     * threads exist (setenv); a user's own setting wins. */
    setenv("HWLOC_HIDE_ERRORS", "2", 0);
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) return mnw_err_set(e, "hwloc: topology init failed: %s", strerror(errno));
    t->topo = topo;
    CHECK_PT(pthread_once(&pin_once, pin_plugins));
    /* GPUs are PCI devices: keep the important ones with their OS devices.
     * The machine counts include CPUs a cgroup does not allow us. */
    if (hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
        hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) != 0) {
        mnw_err_set(e, "hwloc: cannot configure the topology: %s", strerror(errno));
        goto fail;
    }
    /* opencl would start an OpenCL runtime and gl would contact X servers;
     * neither is needed. Failing with EINVAL means the plugin is absent. */
    hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
    hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
    if (!pci_names) hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci:annotate");
    if (hwloc_topology_load(topo) != 0) {
        mnw_err_set(e, "hwloc: cannot load the topology: %s", strerror(errno));
        goto fail;
    }
    /* a topology from HWLOC_XMLFILE or HWLOC_SYNTHETIC without
     * HWLOC_THISSYSTEM=1 gets hwloc's dummy binding hooks: bindings would
     * succeed and do nothing, and the "process binding" would be made up */
    if (!hwloc_topology_is_thissystem(topo)) {
        mnw_err_set(e, "hwloc: the topology is not this machine's (HWLOC_XMLFILE or HWLOC_SYNTHETIC without "
                       "HWLOC_THISSYSTEM=1?): cannot read or set CPU bindings");
        goto fail;
    }
    /* no lazily refreshed cache left: concurrent readers are safe after this */
    if (hwloc_topology_refresh(topo) != 0) {
        mnw_err_set(e, "hwloc: cannot refresh the topology: %s", strerror(errno));
        goto fail;
    }

    mnw_hostname(t->host, sizeof t->host, 0);
    t->packages = nbobjs(topo, HWLOC_OBJ_PACKAGE);
    t->cores = nbobjs(topo, core_type(topo));
    t->pus = nbobjs(topo, HWLOC_OBJ_PU);
    t->numa_nodes = nbobjs(topo, HWLOC_OBJ_NUMANODE);

    t->bound = hwloc_bitmap_alloc();
    if (!t->bound) {
        mnw_err_set(e, "hwloc: out of memory");
        goto fail;
    }
    if (hwloc_get_cpubind(topo, t->bound, HWLOC_CPUBIND_PROCESS) != 0) {
        mnw_err_set(e, "hwloc: cannot read the process CPU binding: %s", strerror(errno));
        goto fail;
    }
    hwloc_bitmap_and(t->bound, t->bound, hwloc_topology_get_complete_cpuset(topo));
    if (hwloc_bitmap_iszero(t->bound)) {
        mnw_err_set(e, "hwloc: the process CPU binding holds no CPU of the topology");
        goto fail;
    }
    t->bound_cores = count_meeting(topo, core_type(topo), t->bound);
    t->bound_pus = count_meeting(topo, HWLOC_OBJ_PU, t->bound);
    hwloc_bitmap_list_snprintf(t->bound_list, sizeof t->bound_list, t->bound);

    for (hwloc_obj_t o = NULL; (o = hwloc_get_next_pcidev(topo, o)) && t->ngpus < MNW_TOPO_MAX_GPUS;) {
        const struct hwloc_pcidev_attr_s *a = &o->attr->pcidev;
        if (a->vendor_id != NVIDIA_VENDOR || (a->class_id != 0x0300 && a->class_id != 0x0302)) continue;
        mnw_topo_gpu *g = &t->gpu[t->ngpus++];
        if (!gpu_fill(topo, o, g)) *unnamed = 1;
        if (!g->cpuset) {
            mnw_err_set(e, "hwloc: out of memory");
            goto fail;
        }
    }
    /* in PCI bus id order (nvidia-smi's, and CUDA's with
     * CUDA_DEVICE_ORDER=PCI_BUS_ID); ids are fixed-width lower-case hex */
    for (int i = 1; i < t->ngpus; i++)
        for (int j = i; j > 0 && strcmp(t->gpu[j - 1].busid, t->gpu[j].busid) > 0; j--) {
            mnw_topo_gpu tmp = t->gpu[j];
            t->gpu[j] = t->gpu[j - 1];
            t->gpu[j - 1] = tmp;
        }
    return 0;
fail:
    mnw_topo_free(t);
    return -1;
}

/* hwloc's pci plugin names every PCI device the topology keeps (host
 * bridges, disks, network cards: "important" I/O) through libpciaccess, which
 * reads pci.ids and grows its table of a vendor's devices one realloc at a
 * time: about 10,000 for Intel's, which a host bridge asks for. With glibc
 * that costs a few ms; ASan's and TSan's allocators move every grown block,
 * so each start of a sanitizer build spent about a second in it wherever
 * pci.ids is installed (docs/TESTING.md). mnw names only NVIDIA GPUs, so the
 * first load reads no names; only when it finds a GPU without a model name
 * (no cuda/nvml plugin) is the topology loaded again with them, which gives
 * the names of before. */
int mnw_topo_load(mnw_topo *t, mnw_err *e)
{
    int unnamed = 0;
    if (load(t, 0, &unnamed, e)) return -1;
    if (!unnamed) return 0;
    mnw_topo_free(t);
    return load(t, 1, &unnamed, e);
}

void mnw_topo_free(mnw_topo *t)
{
    for (int i = 0; i < t->ngpus; i++) hwloc_bitmap_free(t->gpu[i].cpuset);
    hwloc_bitmap_free(t->bound);
    if (t->topo) hwloc_topology_destroy(t->topo);
    memset(t, 0, sizeof *t);
}

int mnw_topo_workers_for_cores(int cores) { return cores > 3 ? cores - 2 : 1; }

int mnw_topo_default_workers(const mnw_topo *t) { return mnw_topo_workers_for_cores(t->bound_cores); }

static int bind_set(const mnw_topo *t, hwloc_const_cpuset_t set, const char *what, mnw_err *e)
{
    if (hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD) != 0) {
        char list[256];
        hwloc_bitmap_list_snprintf(list, sizeof list, set);
        return mnw_err_set(e, "cannot bind thread to %s (CPUs %s): %s", what, list, strerror(errno));
    }
    return 0;
}

/* The core of slot (mod bound_cores) of the process binding, cores in
 * hwloc's logical order; NULL when there is none. */
static hwloc_obj_t slot_core(const mnw_topo *t, int slot)
{
    if (!t->topo || t->bound_cores < 1 || slot < 0) return NULL;
    int want = slot % t->bound_cores, k = 0;
    hwloc_obj_t core = NULL;
    while ((core = hwloc_get_next_obj_by_type(t->topo, core_type(t->topo), core)))
        if (core->cpuset && hwloc_bitmap_intersects(core->cpuset, t->bound) && k++ == want) break;
    return core;
}

int mnw_topo_gpu_index(const mnw_topo *t, const char *busid)
{
    for (int g = 0; g < t->ngpus; g++)
        if (!strcasecmp(t->gpu[g].busid, busid)) return g;
    return -1;
}

int mnw_topo_slot_near_gpu(const mnw_topo *t, int slot, int gpu)
{
    if (gpu < 0 || gpu >= t->ngpus || !t->gpu[gpu].cpuset || !t->bound) return 0;
    hwloc_obj_t core = slot_core(t, slot);
    return core && hwloc_bitmap_intersects(core->cpuset, t->gpu[gpu].cpuset);
}

void mnw_topo_slots_list(const mnw_topo *t, const int *slots, int n, char *buf, size_t len)
{
    if (len) buf[0] = 0;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return;
    for (int k = 0; k < n; k++) {
        hwloc_obj_t core = slot_core(t, slots[k]);
        if (core) hwloc_bitmap_or(set, set, core->cpuset);
    }
    if (t->bound) hwloc_bitmap_and(set, set, t->bound);
    if (len) hwloc_bitmap_list_snprintf(buf, len, set);
    hwloc_bitmap_free(set);
}

int mnw_topo_bind_thread(const mnw_topo *t, int slot, mnw_err *e)
{
    if (!t->topo || t->bound_cores < 1) return mnw_err_set(e, "cannot bind thread: topology not loaded");
    if (slot < 0) return mnw_err_set(e, "cannot bind thread: slot %d < 0", slot);
    hwloc_obj_t core = slot_core(t, slot);
    if (!core) return mnw_err_set(e, "cannot bind thread: core %d of the binding not found", slot % t->bound_cores);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return mnw_err_set(e, "cannot bind thread: out of memory");
    hwloc_bitmap_and(set, core->cpuset, t->bound);
    char what[64];
    snprintf(what, sizeof what, "core L#%u", core->logical_index);
    int rc = bind_set(t, set, what, e);
    hwloc_bitmap_free(set);
    return rc;
}

int mnw_topo_bind_near_gpu(const mnw_topo *t, int gpu, mnw_err *e)
{
    if (!t->topo || !t->bound) return mnw_err_set(e, "cannot bind near a GPU: topology not loaded");
    if (gpu < 0 || gpu >= t->ngpus)
        return mnw_err_set(e, "cannot bind near GPU %d: %d NVIDIA GPU%s found", gpu, t->ngpus, t->ngpus == 1 ? "" : "s");
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return mnw_err_set(e, "cannot bind near a GPU: out of memory");
    hwloc_bitmap_and(set, t->gpu[gpu].cpuset, t->bound);
    if (hwloc_bitmap_iszero(set)) hwloc_bitmap_copy(set, t->bound);
    char what[64];
    snprintf(what, sizeof what, "the CPUs near GPU %d", gpu);
    int rc = bind_set(t, set, what, e);
    hwloc_bitmap_free(set);
    return rc;
}

/* appends to buf[*len..n) like snprintf; stops at the end */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    if (*len >= n) return;
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (r > 0) *len += (size_t)r < n - *len ? (size_t)r : n - *len - 1;
}

#define S_(k) ((k) == 1 ? "" : "s")

void mnw_topo_describe(const mnw_topo *t, char *buf, size_t n)
{
    if (n == 0) return;
    buf[0] = '\0';
    size_t len = 0;
    if (!t->topo) {
        put(buf, n, &len, "topology not loaded");
        return;
    }
    put(buf, n, &len, "host %s: %d package%s, %d core%s, %d PU%s, %d NUMA node%s; ", t->host, t->packages,
        S_(t->packages), t->cores, S_(t->cores), t->pus, S_(t->pus), t->numa_nodes, S_(t->numa_nodes));
    put(buf, n, &len, "process bound to %d core%s / %d PU%s (%s); ", t->bound_cores, S_(t->bound_cores),
        t->bound_pus, S_(t->bound_pus), t->bound_list);
    if (t->ngpus == 0) {
        put(buf, n, &len, "GPUs: none");
        return;
    }
    put(buf, n, &len, "GPUs: %d (", t->ngpus);
    for (int i = 0; i < t->ngpus; i++)
        put(buf, n, &len, "%s%s at %s, NUMA %s", i ? "; " : "", t->gpu[i].name, t->gpu[i].busid,
            t->gpu[i].numa_list[0] ? t->gpu[i].numa_list : "unknown");
    put(buf, n, &len, ")");
}
