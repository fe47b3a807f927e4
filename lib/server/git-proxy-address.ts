import ipaddr from "ipaddr.js";

/**
 * Which network addresses the clone proxy may connect to. The proxy runs inside the operator's network,
 * so by default it reaches only public unicast addresses: loopback, private, link-local (cloud metadata
 * at 169.254.169.254), CGNAT, unique-local IPv6, IPv4 embedded in IPv6 and every other special range are
 * refused unless the operator lists them in `TABULA_GIT_PROXY_ALLOW` (host names and CIDR ranges).
 */

export type AllowList = { hosts: Set<string>; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

/** `"git.internal,10.0.0.0/8,127.0.0.1"` → host names and CIDR ranges; a bad entry is an operator error. */
export function parseAllowList(raw: string | undefined): AllowList {
  const list: AllowList = { hosts: new Set(), ranges: [] };
  for (const entry of (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    if (entry.includes("/")) {
      try {
        list.ranges.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new Error(`TABULA_GIT_PROXY_ALLOW: "${entry}" is not a CIDR range.`);
      }
    } else if (ipaddr.isValid(stripBrackets(entry))) {
      const ip = ipaddr.parse(stripBrackets(entry));
      list.ranges.push([ip, ip.kind() === "ipv4" ? 32 : 128]);
    } else {
      list.hosts.add(entry.toLowerCase());
    }
  }
  return list;
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries. */
function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.parse(stripBrackets(address));
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) return (ip as ipaddr.IPv6).toIPv4Address();
  return ip;
}

function inAllowedRange(ip: ipaddr.IPv4 | ipaddr.IPv6, allow: AllowList): boolean {
  return allow.ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

/** The range name ipaddr.js gives an address that the proxy refuses, or null if it may be reached. */
export function refusedRange(address: string, allow: AllowList): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = normalise(address);
  } catch {
    return "invalid";
  }
  if (inAllowedRange(ip, allow)) return null;
  const range = ip.range();
  return range === "unicast" ? null : range;
}

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export type ResolvedTarget =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; error: string };

/**
 * Resolve `hostname` once and decide on every address it has: one refused address refuses the host
 * (so a name with a public and a private record cannot be raced). The caller connects to the returned
 * address, so no second lookup can answer differently (DNS rebinding).
 */
export async function resolveTarget(hostname: string, allow: AllowList, lookupAll: LookupAll): Promise<ResolvedTarget> {
  const host = stripBrackets(hostname).toLowerCase();
  const hostAllowed = allow.hosts.has(host);
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    const ip = ipaddr.parse(host);
    addresses = [{ address: ip.toString(), family: ip.kind() === "ipv4" ? 4 : 6 }];
  } else {
    try {
      addresses = await lookupAll(host);
    } catch (error) {
      return { ok: false, error: `Could not resolve ${host}: ${(error as { code?: string }).code ?? (error as Error).message}.` };
    }
    if (addresses.length === 0) return { ok: false, error: `Could not resolve ${host}.` };
  }
  if (!hostAllowed) {
    for (const { address } of addresses) {
      const range = refusedRange(address, allow);
      if (range)
        return {
          ok: false,
          error: `${host} resolves to ${address} (${range} range), which this server does not reach. The operator can allow it with TABULA_GIT_PROXY_ALLOW.`,
        };
    }
  }
  // IPv4 first: one pinned address gets no happy-eyeballs fallback, and many servers have no IPv6 route.
  const chosen = addresses.find((a) => a.family === 4) ?? addresses[0]!;
  return { ok: true, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
