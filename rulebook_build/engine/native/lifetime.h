/* A compiled program run for a Python process ends with it (rulebook_build/lifetime.py).
 *
 * A table build whose caller was killed (a lost worker of a cluster, Ctrl-C) must not go on
 * writing files that the rerun writes too, and a search must not keep a core busy.  On Linux
 * the program asks the kernel to kill it when its parent ends (PR_SET_PDEATHSIG), and ends at
 * once if the parent named in RULEBOOK_PARENT is already gone: it may have died between the
 * start of this program and the request.  The program asks this itself, first thing in main,
 * so that Python can start it without a function to run between fork and exec (with one,
 * Python forks the whole interpreter, its tables mapped and its heap, instead of vfork: some
 * 90 ms a start for a large process). */
#ifndef RULEBOOK_LIFETIME_H
#define RULEBOOK_LIFETIME_H

#include <stdlib.h>
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#endif

static void die_with_parent(void) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const char *parent = getenv("RULEBOOK_PARENT");
    if (parent && (long)getppid() != atol(parent)) _exit(1);
#endif
}

#endif
