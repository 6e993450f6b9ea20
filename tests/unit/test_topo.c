/* test_topo.c - the topology module: counts agree with the kernel's view of
 * the process binding; the default worker count; a thread bound with slot k
 * runs on core k (mod bound cores) of the binding; binding near a GPU;
 * describe(). MNW_TOPO_EXPECT_BOUND=N (set by tests/sh/t_topo.sh under
 * taskset) also checks that the binding has N cores. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nld/topo.h"
#include "tests/tap.h"

/* the k-th core (logical order) that meets the binding, computed apart from
 * topo.c: hwloc's "covering" iterator */
static hwloc_obj_t nth_bound_core(const mnw_topo *t, int k)
{
    hwloc_obj_type_t type = hwloc_get_type_depth(t->topo, HWLOC_OBJ_CORE) >= 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    hwloc_obj_t o = NULL;
    while ((o = hwloc_get_next_obj_covering_cpuset_by_type(t->topo, t->bound, type, o)))
        if (k-- == 0) return o;
    return NULL;
}

static int cpuset_count(const cpu_set_t *s) { return CPU_COUNT(s); }

/* 1 when every CPU of s is in set (and s is not empty) */
static int inside(const cpu_set_t *s, hwloc_const_cpuset_t set)
{
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, s)) {
            if (!hwloc_bitmap_isset(set, (unsigned)c)) return 0;
            n++;
        }
    return n > 0;
}

static int equal(const cpu_set_t *s, hwloc_const_cpuset_t set)
{
    return inside(s, set) && hwloc_bitmap_weight(set) == CPU_COUNT(s);
}

typedef struct {
    const mnw_topo *t;
    int slot, gpu; /* gpu >= 0: bind near that GPU instead */
    int rc;
    mnw_err e;
    int cpu;          /* sched_getcpu after binding */
    cpu_set_t aff;    /* the thread's affinity after binding */
} bind_job;

static void *bind_main(void *arg)
{
    bind_job *j = arg;
    j->rc = j->gpu >= 0 ? mnw_topo_bind_near_gpu(j->t, j->gpu, &j->e) : mnw_topo_bind_thread(j->t, j->slot, &j->e);
    /* a short spin and a few yields, so the scheduler has moved us */
    volatile unsigned long x = 0;
    for (int r = 0; r < 20; r++) {
        for (int i = 0; i < 100000; i++) x += (unsigned long)i;
        sched_yield();
    }
    j->cpu = sched_getcpu();
    CPU_ZERO(&j->aff);
    pthread_getaffinity_np(pthread_self(), sizeof j->aff, &j->aff);
    return NULL;
}

static void run_bind(bind_job *j)
{
    pthread_t th;
    if (pthread_create(&th, NULL, bind_main, j) != 0) {
        j->rc = -2;
        return;
    }
    pthread_join(th, NULL);
}

static const char xml_machine_io[] =
    "    <object type=\"Bridge\" gp_index=\"90001\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[1b-3c]\">\n"
    "      <object type=\"PCIDev\" gp_index=\"90002\" pci_busid=\"0000:1b:00.0\" pci_type=\"0302 [10de:2330] [10de:16c1] a1\">\n"
    "        <info name=\"PCIDevice\" value=\"GH100 [H100 SXM5 80GB]\"/>\n"
    "        <object type=\"OSDev\" gp_index=\"90003\" name=\"cuda0\" subtype=\"CUDA\" osdev_type=\"5\">\n"
    "          <info name=\"Backend\" value=\"CUDA\"/>\n"
    "          <info name=\"GPUModel\" value=\"NVIDIA H100 80GB HBM3\"/>\n"
    "        </object>\n"
    "      </object>\n"
    "      <object type=\"PCIDev\" gp_index=\"90004\" pci_busid=\"0000:1b:00.1\" pci_type=\"0403 [10de:22a3] [10de:16c1] a1\"/>\n"
    "      <object type=\"PCIDev\" gp_index=\"90005\" pci_busid=\"0000:3c:00.0\" pci_type=\"0300 [10de:20b0] [10de:1450] a1\">\n"
    "        <info name=\"PCIDevice\" value=\"GA100 [A100 SXM4 40GB]\"/>\n"
    "      </object>\n"
    "      <object type=\"PCIDev\" gp_index=\"90006\" pci_busid=\"0000:3d:00.0\" pci_type=\"0300 [1234:1111] [1234:1111] 02\"/>\n"
    "    </object>\n";
static const char xml_core_io[] =
    "<object type=\"Bridge\" gp_index=\"90011\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[9a-9a]\">"
    "<object type=\"PCIDev\" gp_index=\"90012\" pci_busid=\"0000:9a:00.0\" pci_type=\"0302 [10de:2331] [10de:1626] a1\"/>"
    "</object>";

static const mnw_topo_gpu *gpu_at(const mnw_topo *t, const char *busid)
{
    for (int i = 0; i < t->ngpus; i++)
        if (strcmp(t->gpu[i].busid, busid) == 0) return &t->gpu[i];
    return NULL;
}

/* Exports the loaded topology as XML, adds NVIDIA devices (one named by a
 * CUDA OS device, one by the PCI database, one unnamed under the first core;
 * an NVIDIA audio function and another vendor's GPU that must not count),
 * loads it through HWLOC_XMLFILE with HWLOC_THISSYSTEM=1 and checks the
 * GPUs found, their names, locality and bind_near_gpu. */
static void xml_gpus(const mnw_topo *real, const cpu_set_t *before)
{
    char *xml = NULL, path[] = "/tmp/mnw-test-topo.XXXXXX";
    int len = 0;
    setenv("HWLOC_LIBXML", "0", 1); /* hwloc's own XML code: no libxml2 state */
    if (hwloc_topology_export_xmlbuffer(real->topo, &xml, &len, 0) != 0) {
        T_OK(0, "export the topology as XML: %s", strerror(errno));
        return;
    }
    /* the Machine object closes with the first line indented by 2 spaces */
    char *mach_end = strstr(xml, "\n  </object>");
    char *core = strstr(xml, "<object type=\"Core\"");
    char *core_open = core ? strchr(core, '>') : NULL;
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    T_OK(mach_end && core_open && core_open < mach_end && f, "XML topology with added GPUs written");
    if (!(mach_end && core_open && core_open < mach_end && f)) {
        hwloc_free_xmlbuffer(real->topo, xml);
        if (f) fclose(f);
        return;
    }
    fwrite(xml, 1, (size_t)(core_open + 1 - xml), f);
    fputs(xml_core_io, f);
    fwrite(core_open + 1, 1, (size_t)(mach_end + 1 - (core_open + 1)), f);
    fputs(xml_machine_io, f);
    fputs(mach_end + 1, f);
    fclose(f);
    hwloc_free_xmlbuffer(real->topo, xml);

    setenv("HWLOC_XMLFILE", path, 1);
    mnw_topo x;
    mnw_err e = {{0}};
    /* not declared this system: hwloc cannot read or set bindings */
    int rc = mnw_topo_load(&x, &e);
    T_OK(rc == -1 && e.msg[0] && x.topo == NULL && x.bound == NULL,
         "an XML topology of another system: load fails, reported, nothing kept: %s", e.msg);
    setenv("HWLOC_THISSYSTEM", "1", 1);
    rc = mnw_topo_load(&x, &e);
    unsetenv("HWLOC_XMLFILE");
    unsetenv("HWLOC_THISSYSTEM");
    unlink(path);
    T_OK(rc == 0, "XML topology loads%s%s", rc ? ": " : "", rc ? e.msg : "");
    if (rc != 0) return;
    T_OK(x.pus == real->pus && x.cores == real->cores && x.bound_cores == real->bound_cores &&
             hwloc_bitmap_isequal(x.bound, real->bound),
         "same machine and binding as the live topology");
    const mnw_topo_gpu *a = gpu_at(&x, "0000:1b:00.0"), *b = gpu_at(&x, "0000:3c:00.0"),
                       *c = gpu_at(&x, "0000:9a:00.0");
    T_OK(x.ngpus == 3 && a && b && c, "3 NVIDIA GPUs (display and 3D classes; not audio, not other vendors): %d",
         x.ngpus);
    T_OK(a == &x.gpu[0] && b == &x.gpu[1] && c == &x.gpu[2], "GPUs in PCI bus id order");
    if (!(a && b && c)) {
        mnw_topo_free(&x);
        return;
    }
    T_OK(strcmp(a->name, "NVIDIA H100 80GB HBM3") == 0, "name from the CUDA OS device first: %s", a->name);
    T_OK(strcmp(b->name, "GA100 [A100 SXM4 40GB]") == 0, "else from the PCI database: %s", b->name);
    T_OK(strcmp(c->name, "NVIDIA PCI device 2331") == 0 && c->device_id == 0x2331, "else the device id: %s",
         c->name);
    hwloc_obj_t core0 = hwloc_get_obj_by_type(x.topo, HWLOC_OBJ_CORE, 0);
    T_OK(core0 && hwloc_bitmap_isequal(c->cpuset, core0->cpuset) &&
             hwloc_bitmap_isequal(a->cpuset, hwloc_topology_get_complete_cpuset(x.topo)),
         "local CPUs: the first core's for the GPU under it, the machine's for the others");
    int numa_ok = a->numa_list[0] && c->numa_list[0];
    if (x.numa_nodes == 1) {
        int only = (int)hwloc_get_obj_by_type(x.topo, HWLOC_OBJ_NUMANODE, 0)->os_index;
        numa_ok &= a->numa == only && c->numa == only;
    }
    T_OK(numa_ok, "local NUMA nodes: %s (%d), %s (%d)", a->numa_list, a->numa, c->numa_list, c->numa);

    /* near the core-local GPU: that core's PUs in the binding, or the
     * binding when it holds none of them */
    hwloc_bitmap_t expect = hwloc_bitmap_alloc();
    hwloc_bitmap_and(expect, c->cpuset, x.bound);
    if (hwloc_bitmap_iszero(expect)) hwloc_bitmap_copy(expect, x.bound);
    bind_job jc = {.t = &x, .gpu = (int)(c - x.gpu)}, ja = {.t = &x, .gpu = (int)(a - x.gpu)};
    run_bind(&jc);
    run_bind(&ja);
    T_OK(jc.rc == 0 && equal(&jc.aff, expect) && jc.cpu >= 0 && hwloc_bitmap_isset(expect, (unsigned)jc.cpu),
         "bind_near_gpu: a GPU under core L#0 binds to its PUs in the binding, or to the binding if none (CPU %d) %s", jc.cpu, jc.e.msg);
    T_OK(ja.rc == 0 && CPU_EQUAL(&ja.aff, before), "bind_near_gpu: a machine-wide GPU binds to the whole binding %s",
         ja.e.msg);
    hwloc_bitmap_free(expect);

    /* the workers' plan asks (nld/finplan.h): a GPU by bus id, which slots
     * are near it, the CPUs of slots */
    const int ci = (int)(c - x.gpu), ai = (int)(a - x.gpu);
    T_OK(mnw_topo_gpu_index(&x, "0000:9A:00.0") == ci && mnw_topo_gpu_index(&x, "0000:00:01.0") == -1,
         "gpu_index: by bus id in any case; -1 for a bus hwloc did not find");
    int near_c = 0, near_a = 0;
    for (int sl = 0; sl < x.bound_cores; sl++) {
        near_c += mnw_topo_slot_near_gpu(&x, sl, ci);
        near_a += mnw_topo_slot_near_gpu(&x, sl, ai);
    }
    const int core0_bound = hwloc_bitmap_intersects(core0->cpuset, x.bound);
    T_OK(near_c == core0_bound && near_a == x.bound_cores && !mnw_topo_slot_near_gpu(&x, 0, x.ngpus),
         "slot_near_gpu: %d slot(s) near the GPU under core 0 (its core %s the binding), all %d near a machine-wide "
         "one, none near a GPU that is not there",
         near_c, core0_bound ? "in" : "not in", near_a);
    hwloc_obj_t first = NULL;
    while ((first = hwloc_get_next_obj_by_type(x.topo, HWLOC_OBJ_CORE, first)))
        if (hwloc_bitmap_intersects(first->cpuset, x.bound)) break;
    char want[256] = "", got[256];
    if (first) {
        hwloc_bitmap_t fs = hwloc_bitmap_alloc();
        hwloc_bitmap_and(fs, first->cpuset, x.bound);
        hwloc_bitmap_list_snprintf(want, sizeof want, fs);
        hwloc_bitmap_free(fs);
    }
    int s0[2] = {0, x.bound_cores}; /* the second wraps around to the first */
    mnw_topo_slots_list(&x, s0, 2, got, sizeof got);
    T_OK(first && strcmp(got, want) == 0, "slots_list: slot 0 (and bound_cores, wrapped) are CPUs %s: %s", want, got);
    char line[2048];
    mnw_topo_describe(&x, line, sizeof line);
    printf("# %s\n", line);
    T_OK(strstr(line, "GPUs: 3 (") && strstr(line, "NVIDIA H100 80GB HBM3 at 0000:1b:00.0, NUMA "),
         "describe() lists the GPUs");
    mnw_topo_free(&x);
}

int main(void)
{
    cpu_set_t before;
    CPU_ZERO(&before);
    T_OK(sched_getaffinity(0, sizeof before, &before) == 0, "sched_getaffinity");

    mnw_topo t;
    mnw_err e = {{0}};
    int rc = mnw_topo_load(&t, &e);
    T_OK(rc == 0, "topology loads%s%s", rc ? ": " : "", rc ? e.msg : "");
    if (rc != 0) return t_exit();
    char line[2048];
    mnw_topo_describe(&t, line, sizeof line);
    printf("# %s\n", line);

    /* counts */
    T_OK(t.bound_pus == cpuset_count(&before), "PUs of the binding (%d) = CPUs of sched_getaffinity (%d)", t.bound_pus,
         cpuset_count(&before));
    T_OK(equal(&before, t.bound), "binding (%s) = sched_getaffinity's CPU set", t.bound_list);
    hwloc_bitmap_t parsed = hwloc_bitmap_alloc();
    T_OK(hwloc_bitmap_list_sscanf(parsed, t.bound_list) == 0 && hwloc_bitmap_isequal(parsed, t.bound),
         "binding list string \"%s\" reads back as the binding", t.bound_list);
    hwloc_bitmap_free(parsed);
    T_OK(t.pus >= t.bound_pus && t.pus >= 1, "machine PUs (%d) >= bound PUs (%d)", t.pus, t.bound_pus);
    T_OK(t.cores <= t.pus && t.cores >= 1, "cores (%d) <= PUs (%d)", t.cores, t.pus);
    T_OK(t.bound_cores >= 1 && t.bound_cores <= t.bound_pus && t.bound_cores <= t.cores,
         "1 <= bound cores (%d) <= bound PUs (%d), <= cores (%d)", t.bound_cores, t.bound_pus, t.cores);
    T_OK(t.packages >= 1 && t.numa_nodes >= 1 && t.packages <= t.cores, "packages (%d), NUMA nodes (%d) >= 1",
         t.packages, t.numa_nodes);
    T_OK(t.host[0] != '\0', "host name \"%s\"", t.host);
    cpu_set_t after;
    CPU_ZERO(&after);
    sched_getaffinity(0, sizeof after, &after);
    T_OK(CPU_EQUAL(&before, &after), "loading does not change the calling thread's binding");

    /* default worker count */
    int dw = mnw_topo_default_workers(&t);
    T_OK(dw == (t.bound_cores - 2 > 1 ? t.bound_cores - 2 : 1), "default workers %d = max(1, %d bound cores - 2)", dw,
         t.bound_cores);
    mnw_topo fake;
    memset(&fake, 0, sizeof fake);
    int want[][2] = {{1, 1}, {2, 1}, {3, 1}, {4, 2}, {16, 14}, {128, 126}};
    int dw_ok = 1;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        fake.bound_cores = want[i][0];
        dw_ok &= mnw_topo_default_workers(&fake) == want[i][1];
    }
    T_OK(dw_ok, "default workers for 1, 2, 3, 4, 16, 128 bound cores: 1, 1, 1, 2, 14, 126");

    const char *exp = getenv("MNW_TOPO_EXPECT_BOUND");
    if (exp && *exp) {
        int n = atoi(exp);
        T_OK(t.bound_cores == n, "MNW_TOPO_EXPECT_BOUND=%d: bound cores %d", n, t.bound_cores);
        T_OK(dw == (n - 2 > 1 ? n - 2 : 1), "MNW_TOPO_EXPECT_BOUND=%d: default workers %d", n, dw);
    }

    /* thread binding: every slot of the binding, then one that wraps */
    int slots = t.bound_cores + 1, runs_ok = 1, exact_ok = 1, disjoint_ok = 1, bind_ok = 1;
    cpu_set_t *got = calloc((size_t)slots, sizeof *got);
    for (int s = 0; s < slots; s++) {
        bind_job j = {.t = &t, .slot = s, .gpu = -1};
        run_bind(&j);
        hwloc_obj_t core = nth_bound_core(&t, s % t.bound_cores);
        if (j.rc != 0 || !core) {
            printf("# slot %d: rc %d (%s), core %p\n", s, j.rc, j.e.msg, (void *)core);
            bind_ok = 0;
            continue;
        }
        hwloc_bitmap_t expect = hwloc_bitmap_alloc();
        hwloc_bitmap_and(expect, core->cpuset, t.bound);
        if (j.cpu < 0 || !hwloc_bitmap_isset(expect, (unsigned)j.cpu)) {
            printf("# slot %d ran on CPU %d, outside core L#%u\n", s, j.cpu, core->logical_index);
            runs_ok = 0;
        }
        if (!equal(&j.aff, expect)) exact_ok = 0;
        got[s] = j.aff;
        for (int r = 0; r < s && s < t.bound_cores; r++) {
            cpu_set_t both;
            CPU_AND(&both, &got[r], &got[s]);
            if (CPU_COUNT(&both) != 0) disjoint_ok = 0;
        }
        hwloc_bitmap_free(expect);
    }
    T_OK(bind_ok, "mnw_topo_bind_thread succeeds for slots 0..%d", slots - 1);
    T_OK(runs_ok, "a thread bound with slot k runs on core k mod %d of the binding (slots 0..%d)", t.bound_cores,
         slots - 1);
    T_OK(exact_ok, "its affinity is exactly that core's PUs in the binding");
    T_OK(disjoint_ok, "slots 0..%d get distinct cores", t.bound_cores - 1);
    T_OK(slots < 2 || CPU_EQUAL(&got[0], &got[slots - 1]), "slot %d wraps to the first core", slots - 1);
    free(got);
    /* concurrently: 2 x bound cores threads binding at once */
    int nc = 2 * t.bound_cores, conc_ok = 1;
    bind_job *cj = calloc((size_t)nc, sizeof *cj);
    pthread_t *th = calloc((size_t)nc, sizeof *th);
    char *started = calloc((size_t)nc, 1);
    for (int s = 0; s < nc; s++) {
        cj[s] = (bind_job){.t = &t, .slot = s, .gpu = -1, .rc = -2};
        started[s] = pthread_create(&th[s], NULL, bind_main, &cj[s]) == 0;
    }
    for (int s = 0; s < nc; s++) {
        if (started[s]) pthread_join(th[s], NULL);
        hwloc_obj_t core = nth_bound_core(&t, s % t.bound_cores);
        hwloc_bitmap_t expect = hwloc_bitmap_alloc();
        if (core) hwloc_bitmap_and(expect, core->cpuset, t.bound);
        if (cj[s].rc != 0 || !core || !equal(&cj[s].aff, expect)) conc_ok = 0;
        hwloc_bitmap_free(expect);
    }
    T_OK(conc_ok, "%d threads binding at once each get their core", nc);
    free(cj);
    free(th);
    free(started);
    bind_job neg = {.t = &t, .slot = -1, .gpu = -1};
    run_bind(&neg);
    T_OK(neg.rc == -1 && neg.e.msg[0] && CPU_EQUAL(&neg.aff, &before), "slot -1 refused, binding unchanged: %s",
         neg.e.msg);

    /* GPUs */
    if (t.ngpus == 0) {
        bind_job g = {.t = &t, .gpu = 0};
        run_bind(&g);
        T_OK(g.rc == -1 && strstr(g.e.msg, "GPU") && CPU_EQUAL(&g.aff, &before),
             "no GPU: bind_near_gpu(0) returns -1 with a message: %s", g.e.msg);
    } else {
        int near_ok = 1, fields_ok = 1;
        for (int i = 0; i < t.ngpus; i++) {
            bind_job g = {.t = &t, .gpu = i};
            run_bind(&g);
            if (g.rc != 0 || !inside(&g.aff, t.bound)) near_ok = 0;
            fields_ok &= t.gpu[i].name[0] && strlen(t.gpu[i].busid) == 12 && t.gpu[i].cpuset;
            printf("# GPU %d: %s at %s, NUMA %s, near CPUs bound: rc %d %s\n", i, t.gpu[i].name, t.gpu[i].busid,
                   t.gpu[i].numa_list, g.rc, g.e.msg);
        }
        T_OK(fields_ok, "%d GPU(s): name, bus id and local CPUs filled", t.ngpus);
        T_OK(near_ok, "bind_near_gpu binds inside the process binding for every GPU");
        bind_job g = {.t = &t, .gpu = t.ngpus};
        run_bind(&g);
        T_OK(g.rc == -1 && g.e.msg[0], "bind_near_gpu(%d) refused: %s", t.ngpus, g.e.msg);
    }

    /* describe */
    char num[300];
    int desc_ok = strstr(line, t.host) != NULL;
    snprintf(num, sizeof num, " %d core", t.cores);
    desc_ok &= strstr(line, num) != NULL;
    snprintf(num, sizeof num, " %d PU", t.pus);
    desc_ok &= strstr(line, num) != NULL;
    snprintf(num, sizeof num, "bound to %d core", t.bound_cores);
    desc_ok &= strstr(line, num) != NULL;
    snprintf(num, sizeof num, "/ %d PU", t.bound_pus);
    desc_ok &= strstr(line, num) != NULL;
    snprintf(num, sizeof num, "(%s)", t.bound_list);
    desc_ok &= strstr(line, num) != NULL;
    desc_ok &= t.ngpus ? strstr(line, t.gpu[0].busid) != NULL : strstr(line, "GPUs: none") != NULL;
    T_OK(desc_ok, "describe() names the host, the counts, the binding and the GPUs");
    char tiny[16];
    memset(tiny, 'x', sizeof tiny);
    mnw_topo_describe(&t, tiny, 10);
    T_OK(strlen(tiny) == 9 && tiny[10] == 'x', "describe() truncates to its buffer");

    /* GPU detection, on this machine's topology with NVIDIA devices added
     * (XML, bindings still applied to this system) */
    xml_gpus(&t, &before);

    /* free, twice; load again */
    mnw_topo_free(&t);
    T_OK(t.topo == NULL && t.bound == NULL && t.ngpus == 0, "free clears the topology");
    mnw_topo_free(&t);
    mnw_topo_describe(&t, line, sizeof line);
    T_OK(strcmp(line, "topology not loaded") == 0, "free twice is harmless; describe() of a freed topology");
    rc = mnw_topo_load(&t, &e);
    T_OK(rc == 0 && t.bound_pus == cpuset_count(&before), "loads again");
    mnw_topo_free(&t);
    return t_exit();
}
