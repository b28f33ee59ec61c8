/* The compact code of every slot of a class, from its two built tables: for rulebook_build.
 *
 * Usage: pack PURE_FILE PURE_OFFSET RULES_FILE RULES_OFFSET SLOTS
 *   The files are a class's tables without and with count rules (two header lines, then one
 *   little-endian int16 a slot, from PURE_OFFSET and RULES_OFFSET); SLOTS is their length.
 *   Writes one byte a slot on standard output, the code of ../tables/compact.py (code_of):
 *     0 unused slot, 1 draw, 2 a pure win with no count-rule value kept, 3 the same for a loss,
 *     4 + d/2 a win in d plies with the count rules (d odd, at most CAP),
 *     36 + d/2 a loss in d plies with the count rules (d even, at most CAP - 1).
 *   Exit status 0, or 1 with a message when the two tables disagree in a way the count rules
 *   cannot explain (a count-rule win that is no pure win, an unused slot in one only): such a
 *   pair is refused, never packed.
 * The Python code reads this output in blocks and compresses them; it also has the same
 * mapping in Python (compact.code_of), which the tests compare with this program.
 *
 * Usage: pack codes PURE_CODES RULES_CODES SLOTS
 *   The same from the two kinds' build codes (one byte a slot, no header: tablebuild.c code_of,
 *   ../tables/compact.py build_code), which keep what the codes above need: the pure result, and
 *   the count-rule distance within CAP.  PURE_CODES may also be the pure kind's results file
 *   (as "pack results" writes it, told apart by its length).  With "fill VARIANT OWN_MEN ...",
 *   the codes are filled as "pack fill ... 1" fills them (below), in the same pass: the codes of
 *   a filled compact file (../tables/compact.py, "compact-2").  With "fill marked" the same, the
 *   positions that must capture told by the marks of RULES_CODES (bit 7, tablebuild "marked",
 *   which "pack kept" keeps), not generated again: a sixth of the work.
 *
 * Usage: pack kept CODES SLOTS
 *   Turns a class's build codes with the count rules (CODES, one byte a slot) into *kept codes*
 *   in place, two a byte (kept_of): the result, whether the distance is within CAP, and the
 *   mark of a position that must capture.  That is what the compact code keeps of a class
 *   where no count runs (Fries Spel's 5-piece classes, ../tables/compact.py kept_distance), so
 *   "pack codes" takes them as RULES_CODES (told apart by their length) and makes the same
 *   compact codes; in half the bytes, while the pure kind of the pair is built.
 *
 * Usage: pack results CODES SLOTS
 *   The results of a class's build codes (CODES, one byte a slot): two bits a slot, four slots
 *   a byte from the lowest bits, 0 unused, 1 draw, 2 a win, 3 a loss (build codes 0 to 3), on
 *   standard output: what the builds of the classes it leads to still need of it where the
 *   count-rule distance does not count (tablebuild.c, a .wdl file), in a quarter of the bytes.
 *   CODES may also be kept codes (as "pack kept" leaves them, told apart by their length).
 *
 * Usage: pack fill VARIANT OWN_MEN OWN_KINGS OTHER_MEN OTHER_KINGS CAPTURES
 *   The codes of a class (one byte a slot, as above) on standard input; writes them on standard
 *   output with the slots no probe reads given the code before them (in slot order, 1 before
 *   the first), so that they cost the compression almost nothing (../tables/remote.py, the
 *   site's tables): every unused slot (two pieces on one square), and where CAPTURES is 1 every
 *   position whose side to move must capture, whose value the reader works out from the
 *   positions its captures lead to (remote.py SiteTables, prover.c resolved_code).  VARIANT is
 *   0 (International) or 1 (Fries Spel).  Counts on standard error: "filled U unused, C captures".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draughts.h" /* the class's layout, decode_slot and has_capture */
#include "lifetime.h" /* die_with_parent */

#define CAP 63
#define CHUNK (1 << 20)

static int code_of(int16_t pure, int16_t rules) {
    if (pure == -2) return rules == -2 ? 0 : -1;
    if (rules == -2) return -1;
    if (pure == -1) return rules == -1 ? 1 : -1;
    int pure_win = pure & 1;
    if (rules >= 0 && (rules & 1) != pure_win) return -1; /* the rules only ever add draws */
    if (rules >= 0 && rules <= CAP) return pure_win ? 4 + rules / 2 : 36 + rules / 2;
    return pure_win ? 2 : 3;
}

/* a build code read back as a value that gives code_of the same code (65 and 64: beyond CAP) */
static int16_t value_of_build_code(unsigned char c) {
    if (c == 0) return -2;
    if (c == 1) return -1;
    if (c == 2) return CAP + 2;
    if (c == 3) return CAP + 1;
    if (c < 36) return (int16_t)(2 * (c - 4) + 1);
    if (c < 68) return (int16_t)(2 * (c - 36));
    return -3; /* no build code */
}

/* the result of a build code (its first four codes stand for themselves); -1 for none */
static int result_of(unsigned char c) { return c < 4 ? c : c < 36 ? 2 : c < 68 ? 3 : -1; }

/* A *kept* build code, half a byte (pack kept): the result of a build code with the count
 * rules, and whether its distance is within CAP: 0 to 3 as the build codes 0 to 3, 4 a win
 * within CAP, 5 a loss within CAP; -1 for no build code.  What the compact code keeps of a
 * class with no count running (../tables/compact.py kept_distance: the longest distance of the
 * result within CAP), read back as the build code of that distance (KEPT_CODE). */
#define MARK 0x80 /* a build code's bit 7: a position that must capture (tablebuild "marked") */
static int kept_of(unsigned char c) {
    int k = c & ~MARK, kept = k < 4 ? k : k < 36 ? 4 : k < 68 ? 5 : -1;
    return kept < 0 ? -1 : kept | (c & MARK ? 8 : 0); /* the mark kept as bit 3 */
}
static const unsigned char KEPT_CODE[16] = {0, 1, 2, 3, 4 + CAP / 2, 36 + (CAP - 1) / 2, 255, 255,
                                            MARK | 0, MARK | 1, MARK | 2, MARK | 3,
                                            MARK | (4 + CAP / 2), MARK | (36 + (CAP - 1) / 2), 255, 255};

static long long file_bytes(FILE *f) {
    if (fseek(f, 0, SEEK_END)) return -1;
    long long bytes = ftell(f);
    return fseek(f, 0, SEEK_SET) ? -1 : bytes;
}

/* ``want`` kept codes (two a byte, the first in the low half) read from ``in`` as the build
 * codes they stand for; 0 where the file ends first or holds no kept code */
static int read_kept(FILE *in, unsigned char *codes, unsigned char *halves, size_t want) {
    size_t bytes = (want + 1) / 2;
    if (fread(halves, 1, bytes, in) != bytes) return 0;
    for (size_t i = 0; i < want; i++) {
        unsigned char c = KEPT_CODE[halves[i / 2] >> 4 * (i % 2) & 15];
        if (c == 255) return 0;
        codes[i] = c;
    }
    return 1;
}

/* pack kept FILE SLOTS: the build codes with the count rules of FILE turned into kept codes
 * (kept_of), two a byte, in place: each chunk is read before its half is written at half its
 * offset, and the file is cut to its new length at the end.  A file left midway holds
 * neither: the caller renames it first, and a run that finds it so builds the pair again. */
static int kept(char **argv) {
    FILE *f = fopen(argv[2], "r+b");
    long long slots = atoll(argv[3]);
    if (!f || file_bytes(f) != slots) {
        fprintf(stderr, "pack kept: %s is not the build codes of %lld slots\n", argv[2], slots);
        return 1;
    }
    static unsigned char codes[CHUNK], out[CHUNK / 2];
    for (long long done = 0; done < slots;) {
        size_t want = (size_t)(slots - done < CHUNK ? slots - done : CHUNK);
        if (fseek(f, done, SEEK_SET) || fread(codes, 1, want, f) != want) {
            fprintf(stderr, "pack kept: cannot read %s at slot %lld\n", argv[2], done);
            return 1;
        }
        memset(out, 0, (want + 1) / 2);
        for (size_t i = 0; i < want; i++) {
            int k = kept_of(codes[i]);
            if (k < 0) {
                fprintf(stderr, "pack kept: slot %lld: %d is no build code\n", done + (long long)i, codes[i]);
                return 1;
            }
            out[i / 2] |= (unsigned char)(k << 4 * (i % 2));
        }
        size_t bytes = (want + 1) / 2;
        if (fseek(f, done / 2, SEEK_SET) || fwrite(out, 1, bytes, f) != bytes) {
            fprintf(stderr, "pack kept: cannot write %s at slot %lld\n", argv[2], done);
            return 1;
        }
        done += (long long)want;
    }
    if (fflush(f) || ftruncate(fileno(f), (off_t)((slots + 1) / 2)) || fclose(f)) {
        fprintf(stderr, "pack kept: cannot cut %s to its new length\n", argv[2]);
        return 1;
    }
    return 0;
}

static int results(char **argv) {
    FILE *in = fopen(argv[2], "rb");
    if (!in) {
        fprintf(stderr, "pack results: cannot open %s\n", argv[2]);
        return 1;
    }
    long long slots = atoll(argv[3]);
    int halves = slots > 1 && file_bytes(in) == (slots + 1) / 2; /* kept codes (pack kept) */
    static unsigned char codes[CHUNK], out[CHUNK / 4], kept[CHUNK / 2];
    for (long long done = 0; done < slots;) {
        size_t want = (size_t)(slots - done < CHUNK ? slots - done : CHUNK);
        if (halves ? !read_kept(in, codes, kept, want) : fread(codes, 1, want, in) != want) {
            fprintf(stderr, "pack results: the codes end before slot %lld of %lld\n", done, slots);
            return 1;
        }
        memset(out, 0, sizeof out);
        for (size_t i = 0; i < want; i++) {
            int r = result_of(codes[i] & ~MARK);
            if (r < 0) {
                fprintf(stderr, "pack results: slot %lld: %d is no build code\n", done + (long long)i, codes[i]);
                return 1;
            }
            out[i / 4] |= (unsigned char)(r << 2 * (i % 4));
        }
        size_t bytes = (want + 3) / 4;
        if (fwrite(out, 1, bytes, stdout) != bytes) return 1;
        done += (long long)want;
    }
    if (fgetc(in) != EOF) {
        fprintf(stderr, "pack results: more codes than the %lld slots of the class\n", slots);
        return 1;
    }
    return fflush(stdout) ? 1 : 0;
}

/* what fills a class's codes in slot order (fill_codes): its layout, the code before the next
 * slot, whether the positions that must capture are filled too, and how many slots were */
typedef struct {
    layout l;
    unsigned char last;
    int captures;
    unsigned long long unused, capturing;
} filler;

/* a filler for the class m of a variant (0 International, 1 Fries Spel); 0 for no class */
static int start_filler(filler *f, int variant, const int m[4], int captures) {
    for (int g = 0; g < 4; g++)
        if (m[g] < 0 || m[g] > 7) return 0;
    init_geometry(variant);
    init_index();
    make_layout(&f->l, m);
    list_sets(&f->l);
    f->last = 1;
    f->captures = captures;
    f->unused = f->capturing = 0;
    return 1;
}

/* fill ``count`` codes from slot ``first``: every slot no probe reads takes the code before it;
 * -1 (with a message) where an unused slot holds a code */
static int fill_codes(filler *f, unsigned char *codes, size_t count, uint64_t first) {
    for (size_t i = 0; i < count; i++) {
        bb om, ok, pm, pk;
        run own, other;
        if (!decode_slot(&f->l, first + i, &om, &ok, &pm, &pk, &own, &other)) {
            if (codes[i]) {
                fprintf(stderr, "pack: slot %llu: code %d where no position is\n",
                        (unsigned long long)(first + i), codes[i]);
                return -1;
            }
            codes[i] = f->last;
            f->unused++;
        } else if (f->captures && has_capture(om, ok, pm, pk)) {
            codes[i] = f->last;
            f->capturing++;
        } else f->last = codes[i];
    }
    return 0;
}

static int from_build_codes(int argc, char **argv) {
    static filler f; /* with "fill": the slots no probe reads take the code before them */
    int filling = argc == 11, marked = argc == 7 && !strcmp(argv[5], "fill") && !strcmp(argv[6], "marked");
    if (argc == 7 && !marked) {
        fprintf(stderr, "pack codes: not 'fill marked': %s %s\n", argv[5], argv[6]);
        return 1;
    }
    if (filling) {
        int m[4] = {atoi(argv[7]), atoi(argv[8]), atoi(argv[9]), atoi(argv[10])};
        if (strcmp(argv[5], "fill") || !start_filler(&f, atoi(argv[6]), m, 1)) {
            fprintf(stderr, "pack codes: not 'fill VARIANT' and a class: %s %s %s %s %s %s\n",
                    argv[5], argv[6], argv[7], argv[8], argv[9], argv[10]);
            return 1;
        }
    }
    FILE *pure = fopen(argv[2], "rb"), *rules = fopen(argv[3], "rb");
    if (!pure || !rules) {
        fprintf(stderr, "pack codes: cannot open %s\n", pure ? argv[3] : argv[2]);
        return 1;
    }
    long long slots = atoll(argv[4]), pure_bytes = file_bytes(pure), rules_bytes = file_bytes(rules);
    int quarter = slots > 1 && pure_bytes == (slots + 3) / 4; /* the pure kind's results file */
    int halves = slots > 1 && rules_bytes == (slots + 1) / 2; /* the count rules' kept codes */
    if (!quarter && pure_bytes != slots) {
        fprintf(stderr, "pack codes: %s is neither the codes nor the results of %lld slots\n", argv[2], slots);
        return 1;
    }
    if (!halves && rules_bytes != slots) {
        fprintf(stderr, "pack codes: %s is neither the codes nor the kept codes of %lld slots\n", argv[3], slots);
        return 1;
    }
    static unsigned char a[CHUNK], b[CHUNK], out[CHUNK], packed[CHUNK / 4], kept_halves[CHUNK / 2];
    unsigned char last = 1; /* with "fill marked": the code before the slot */
    for (long long done = 0; done < slots;) {
        size_t want = (size_t)(slots - done < CHUNK ? slots - done : CHUNK);
        if (quarter) {
            size_t bytes = (want + 3) / 4;
            if (fread(packed, 1, bytes, pure) != bytes) want = 0; /* reported below */
            for (size_t i = 0; i < want; i++) a[i] = packed[i / 4] >> 2 * (i % 4) & 3;
        } else if (fread(a, 1, want, pure) != want)
            want = 0;
        if (!want || (halves ? !read_kept(rules, b, kept_halves, want) : fread(b, 1, want, rules) != want)) {
            fprintf(stderr, "pack codes: the codes end before slot %lld of %lld\n", done, slots);
            return 1;
        }
        for (size_t i = 0; i < want; i++) {
            int mark = b[i] & MARK;
            int16_t p = value_of_build_code(a[i]), r = value_of_build_code(b[i] & ~MARK);
            int code = p == -3 || r == -3 || (p >= 0 && p <= CAP) ? -1 : code_of(p, r);
            if (code < 0) {
                fprintf(stderr, "pack codes: slot %lld: pure code %d, with count rules %d: not one position\n",
                        done + (long long)i, a[i], b[i]);
                return 1;
            }
            out[i] = (unsigned char)code;
            if (marked) { /* filled by the marks: no position generated again */
                if (mark && !code) {
                    fprintf(stderr, "pack codes: slot %lld: an unused slot marked\n", done + (long long)i);
                    return 1;
                }
                if (!code || mark) out[i] = last;
                else last = out[i];
            }
        }
        if (filling && fill_codes(&f, out, want, (uint64_t)done)) return 1;
        if (fwrite(out, 1, want, stdout) != want) return 1;
        done += (long long)want;
    }
    if (filling && (uint64_t)slots != f.l.slots) {
        fprintf(stderr, "pack codes: %lld slots, the class has %llu\n", slots, (unsigned long long)f.l.slots);
        return 1;
    }
    if (fgetc(pure) != EOF || fgetc(rules) != EOF) {
        fprintf(stderr, "pack codes: more codes than the %lld slots of the class\n", slots);
        return 1;
    }
    return fflush(stdout) ? 1 : 0;
}

static int fill(char **argv) {
    int m[4] = {atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6])};
    static filler f;
    if (!start_filler(&f, atoi(argv[2]), m, atoi(argv[7]))) {
        fprintf(stderr, "pack fill: not a class: %s %s %s %s\n", argv[3], argv[4], argv[5], argv[6]);
        return 1;
    }
    static unsigned char codes[CHUNK];
    for (uint64_t done = 0; done < f.l.slots;) {
        size_t want = (size_t)(f.l.slots - done < CHUNK ? f.l.slots - done : CHUNK);
        if (fread(codes, 1, want, stdin) != want) {
            fprintf(stderr, "pack fill: the codes end before slot %llu of %llu\n",
                    (unsigned long long)done, (unsigned long long)f.l.slots);
            return 1;
        }
        if (fill_codes(&f, codes, want, done)) return 1;
        if (fwrite(codes, 1, want, stdout) != want) return 1;
        done += want;
    }
    if (fgetc(stdin) != EOF) {
        fprintf(stderr, "pack fill: more codes than the %llu slots of the class\n",
                (unsigned long long)f.l.slots);
        return 1;
    }
    fprintf(stderr, "filled %llu unused, %llu captures\n", f.unused, f.capturing);
    return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv) {
    die_with_parent();
    if (argc == 8 && !strcmp(argv[1], "fill")) return fill(argv);
    if ((argc == 5 || argc == 7 || argc == 11) && !strcmp(argv[1], "codes"))
        return from_build_codes(argc, argv);
    if (argc == 4 && !strcmp(argv[1], "results")) return results(argv);
    if (argc == 4 && !strcmp(argv[1], "kept")) return kept(argv);
    if (argc != 6) {
        fprintf(stderr, "usage: pack PURE_FILE PURE_OFFSET RULES_FILE RULES_OFFSET SLOTS\n"
                        "       pack codes PURE_CODES RULES_CODES SLOTS [fill marked | fill VARIANT OWN_MEN OWN_KINGS OTHER_MEN OTHER_KINGS]\n"
                        "       pack results CODES SLOTS\n"
                        "       pack kept CODES SLOTS\n"
                        "       pack fill VARIANT OWN_MEN OWN_KINGS OTHER_MEN OTHER_KINGS CAPTURES\n");
        return 1;
    }
    FILE *pure = fopen(argv[1], "rb"), *rules = fopen(argv[3], "rb");
    if (!pure || !rules) {
        fprintf(stderr, "pack: cannot open %s\n", pure ? argv[3] : argv[1]);
        return 1;
    }
    long long slots = atoll(argv[5]);
    if (fseek(pure, atol(argv[2]), SEEK_SET) || fseek(rules, atol(argv[4]), SEEK_SET)) {
        fprintf(stderr, "pack: cannot seek\n");
        return 1;
    }
    static int16_t a[CHUNK], b[CHUNK];
    static unsigned char out[CHUNK];
    for (long long done = 0; done < slots;) {
        size_t want = (size_t)(slots - done < CHUNK ? slots - done : CHUNK);
        if (fread(a, 2, want, pure) != want || fread(b, 2, want, rules) != want) {
            fprintf(stderr, "pack: the tables end before slot %lld of %lld\n", done, slots);
            return 1;
        }
        for (size_t i = 0; i < want; i++) {
            int code = code_of(a[i], b[i]);
            if (code < 0) {
                fprintf(stderr, "pack: slot %lld: pure %d, with count rules %d: not one position\n",
                        done + (long long)i, a[i], b[i]);
                return 1;
            }
            out[i] = (unsigned char)code;
        }
        if (fwrite(out, 1, want, stdout) != want) return 1;
        done += (long long)want;
    }
    return fflush(stdout) ? 1 : 0;
}
