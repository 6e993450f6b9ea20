/* sig.c - see sig.h. */
#include "lib/sig.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static _Atomic int pending; /* lock-free, so safe in the handler; read by other threads (TSan) */
static _Atomic int bm_state; /* MNW_SIG_BM_* */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be lock-free to be set in a signal handler");

static void put(const char *s) { (void)!write(2, s, strlen(s)); }

static void on_stop(int signo)
{
    if (pending) { /* the second one: out now, files as they are */
        if (bm_state == MNW_SIG_BM_WRITTEN)
            put("mnw: second stop signal: exiting at once (the last bookmark written stays valid: continue with "
                "mnw --resume OUTDIR)\n");
        else if (bm_state == MNW_SIG_BM_RANK0)
            put("mnw: second stop signal: exiting at once (rank 0 keeps the job's bookmark)\n");
        else
            put("mnw: second stop signal: exiting at once, before the run wrote its first bookmark (start it again "
                "with the same command)\n");
        _exit(128 + signo);
    }
    pending = signo;
}

void mnw_sig_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
}

void mnw_sig_bookmark_state(int state) { bm_state = state; }

int mnw_sig_pending(void) { return pending; }

void mnw_sig_raise_stop(int signo)
{
    if (!pending) pending = signo;
}

const char *mnw_sig_name(int signo)
{
    switch (signo) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGUSR1: return "SIGUSR1";
    default: return "a stop signal";
    }
}
