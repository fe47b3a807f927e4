/**
 * The one racy-timestamp margin every stat-keyed cache uses (git's "racy git" rule).
 *
 * A file written within one mtime tick of the moment a cache recorded it can change again without
 * its (size, mtime) changing: Linux stamps files with a coarse clock that can trail Date.now() by
 * a tick, and lightning-fs stamps them with Date.now() itself. So a cached entry is trusted only
 * when the file's mtime is older than the recording time by this much; younger entries are
 * re-validated by reading.
 */
export const RACY_MARGIN_MS = 50;
