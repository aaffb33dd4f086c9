/* checkpoint: an ensemble's files in one directory, named by run index, so
 * that a killed ensemble restarts where it stopped, on any number of ranks
 * (on a cluster the directory must be on a file system every rank sees).
 * Not part of the library.
 *
 *   manifest.txt       what decides a run's result (the program and its
 *                      parameters); a restart with other values is refused
 *   run_000042.rec     run 42's record, once the run has finished
 *   run_000042.state   run 42's state while it runs (a lattice or system
 *                      snapshot, with the program's own words before it)
 *
 * Every file is written under a temporary name and renamed into place, so
 * that a kill leaves the old version or the new one, never half of one.
 * Records carry a checksum: a damaged one counts as missing and its run is
 * computed again. */
#ifndef CDYN_EXAMPLE_CHECKPOINT_H
#define CDYN_EXAMPLE_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

/* Creates @p dir if it does not exist; writes @p manifest into it, or, if a
 * manifest is there already, checks that it is the same text. Returns 0;
 * -1 (with a message on stderr) when the directory cannot be used or holds
 * another ensemble. */
int checkpoint_open(const char *dir, const char *manifest);

/* Writes run @p run's record of @p n words. Returns 0 or -1. */
int checkpoint_save_record(const char *dir, uint64_t run, const uint64_t *words, size_t n);

/* Reads run @p run's record of @p n words into @p words. Returns 1 when
 * read, 0 when there is none, -1 when the file is damaged or of another
 * size (a message on stderr; @p words unspecified). */
int checkpoint_load_record(const char *dir, uint64_t run, uint64_t *words, size_t n);

/* Writes run @p run's state (@p size bytes). Returns 0 or -1. */
int checkpoint_save_state(const char *dir, uint64_t run, const void *bytes, size_t size);

/* Run @p run's state in a buffer from malloc (the caller frees it) with its
 * size in *size; NULL when there is none or it cannot be read. */
void *checkpoint_load_state(const char *dir, uint64_t run, size_t *size);

/* Writes the @p n words as 8 * n bytes, little-endian, from @p out on (a
 * state's own header before a library snapshot, for example). */
void checkpoint_put_words(unsigned char *out, const uint64_t *words, size_t n);

/* Reads @p n words written by checkpoint_put_words. */
void checkpoint_get_words(const unsigned char *in, uint64_t *words, size_t n);

/* Removes run @p run's state (once its record is written). */
void checkpoint_drop_state(const char *dir, uint64_t run);

#endif
