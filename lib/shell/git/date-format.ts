/**
 * `--date=<mode>` of log and show, as git prints each mode (Documentation/rev-list-options:
 * --date): default, iso, iso-strict, rfc, short, raw, unix, relative, format:<strftime>, and the
 * `-local` form of each (the viewer's time zone instead of the commit's). Written here because
 * git's formats are fixed strings no date library produces exactly (git's own strftime subset,
 * its "+01:00" in iso-strict, its omitted zone in default-local).
 */
import { fatal, formatGitDate, formatIsoDate, formatRelative, formatTz } from "./util";

export type DateMode = { kind: "default" | "iso" | "iso-strict" | "rfc" | "short" | "raw" | "unix" | "relative" | "format"; local: boolean; pattern?: string };

export const DEFAULT_DATE: DateMode = { kind: "default", local: false };

const ALIASES: Record<string, DateMode["kind"]> = {
  default: "default",
  iso: "iso",
  iso8601: "iso",
  "iso-strict": "iso-strict",
  "iso8601-strict": "iso-strict",
  rfc: "rfc",
  rfc2822: "rfc",
  short: "short",
  raw: "raw",
  unix: "unix",
  relative: "relative",
};

export function parseDateMode(value: string | undefined): DateMode {
  if (value === undefined || value === "") return DEFAULT_DATE;
  if (value.startsWith("format-local:")) return { kind: "format", local: true, pattern: value.slice("format-local:".length) };
  if (value.startsWith("format:")) return { kind: "format", local: false, pattern: value.slice("format:".length) };
  if (value === "local") return { kind: "default", local: true };
  const local = value.endsWith("-local");
  const kind = ALIASES[local ? value.slice(0, -"-local".length) : value];
  if (!kind) throw fatal(value === "human" || value === "human-local" ? `--date=${value} is not supported in this shell (try relative or short)` : `unknown date format ${value}`);
  return { kind, local };
}

/** The viewer's offset for that moment, in isomorphic-git's sign (Date#getTimezoneOffset's). */
function localOffset(timestamp: number): number {
  return new Date(timestamp * 1000).getTimezoneOffset();
}

export function formatDate(mode: DateMode, timestamp: number, tzOffset: number, now = Date.now() / 1000): string {
  const tz = mode.local ? localOffset(timestamp) : tzOffset;
  switch (mode.kind) {
    case "default":
      // default-local leaves the zone out: it is the reader's own
      return mode.local ? formatGitDate(timestamp, tz).replace(/ [+-]\d{4}$/, "") : formatGitDate(timestamp, tz);
    case "iso":
      return formatIsoDate(timestamp, tz);
    case "iso-strict": {
      const [date, time] = formatIsoDate(timestamp, tz).split(" ");
      return `${date}T${time}${formatTz(tz).replace(/(\d\d)(\d\d)$/, "$1:$2")}`;
    }
    case "rfc":
      return formatRfc(timestamp, tz);
    case "short":
      return formatIsoDate(timestamp, tz).slice(0, 10);
    case "raw":
      return `${timestamp} ${formatTz(tz)}`;
    case "unix":
      return String(timestamp);
    case "relative":
      return formatRelative(timestamp, now);
    case "format":
      return strftime(mode.pattern ?? "", timestamp, tz);
  }
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const WEEKDAYS_LONG = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const p2 = (n: number) => String(n).padStart(2, "0");

/** The commit's wall-clock time as UTC fields (isomorphic-git's offset: -60 is +0100). */
function wallClock(timestamp: number, tzOffset: number): Date {
  return new Date((timestamp - tzOffset * 60) * 1000);
}

function formatRfc(timestamp: number, tzOffset: number): string {
  const d = wallClock(timestamp, tzOffset);
  return `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${formatTz(tzOffset)}`;
}

/** The C library's strftime for the conversions git users write; others stay as typed. */
function strftime(pattern: string, timestamp: number, tzOffset: number): string {
  const d = wallClock(timestamp, tzOffset);
  const year = d.getUTCFullYear();
  const dayOfYear = Math.floor((Date.UTC(year, d.getUTCMonth(), d.getUTCDate()) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  const hour12 = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  const fields: Record<string, () => string> = {
    a: () => WEEKDAYS[d.getUTCDay()]!,
    A: () => WEEKDAYS_LONG[d.getUTCDay()]!,
    b: () => MONTHS[d.getUTCMonth()]!,
    h: () => MONTHS[d.getUTCMonth()]!,
    B: () => MONTHS_LONG[d.getUTCMonth()]!,
    d: () => p2(d.getUTCDate()),
    e: () => String(d.getUTCDate()).padStart(2, " "),
    H: () => p2(d.getUTCHours()),
    I: () => p2(hour12),
    j: () => String(dayOfYear).padStart(3, "0"),
    m: () => p2(d.getUTCMonth() + 1),
    M: () => p2(d.getUTCMinutes()),
    p: () => (d.getUTCHours() < 12 ? "AM" : "PM"),
    S: () => p2(d.getUTCSeconds()),
    y: () => p2(year % 100),
    Y: () => String(year),
    z: () => formatTz(tzOffset),
    s: () => String(timestamp),
    u: () => String(d.getUTCDay() === 0 ? 7 : d.getUTCDay()),
    w: () => String(d.getUTCDay()),
    F: () => `${year}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    T: () => `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`,
    R: () => `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`,
    D: () => `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${p2(year % 100)}`,
    n: () => "\n",
    t: () => "\t",
    "%": () => "%",
  };
  return pattern.replace(/%(.)/g, (m, c: string) => fields[c]?.() ?? m);
}
