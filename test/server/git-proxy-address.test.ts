import { describe, expect, it } from "vitest";
import { parseAllowList, refusedRange, resolveTarget } from "../../lib/server/git-proxy-address";

const none = parseAllowList(undefined);
const noLookup = async () => {
  throw new Error("no lookup expected for an address literal");
};
/** What the proxy sees for a URL: the WHATWG parser's hostname, as the route gets it. */
const hostOf = (url: string) => new URL(url).hostname;

describe("git proxy address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"], // cloud metadata (AWS, GCP, Azure)
    ["100.64.0.1", "carrierGradeNat"],
    ["100.100.100.200", "carrierGradeNat"], // Alibaba Cloud metadata
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["192.0.2.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "uniqueLocal"], // AWS metadata over IPv6
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"], // IPv4-mapped: judged as the IPv4 inside
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["64:ff9b::a9fe:a9fe", "rfc6052"], // NAT64 of 169.254.169.254
    ["2002:7f00:1::", "6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
  ])("refuses %s (%s)", (address, range) => {
    expect(refusedRange(address, none)).toBe(range);
  });

  it.each(["93.184.215.14", "140.82.112.3", "8.8.8.8", "2606:4700::6810:84e5", "2a00:1450:4001:80b::200e"])("allows public %s", (address) => {
    expect(refusedRange(address, none)).toBeNull();
  });

  it.each([
    ["http://2130706433/r.git", "127.0.0.1"], // decimal
    ["http://0x7f000001/r.git", "127.0.0.1"], // hex
    ["http://017700000001/r.git", "127.0.0.1"], // octal
    ["http://0177.0.0.1/r.git", "127.0.0.1"], // dotted octal
    ["http://127.1/r.git", "127.0.0.1"], // short form
    ["http://0xa9.0xfe.0xa9.0xfe/r.git", "169.254.169.254"],
    ["http://[::ffff:127.0.0.1]/r.git", "[::ffff:7f00:1]"],
    ["http://[0:0:0:0:0:0:0:1]/r.git", "[::1]"],
  ])("other spellings of an address are refused: %s", async (url, hostname) => {
    expect(hostOf(url)).toBe(hostname);
    const r = await resolveTarget(hostOf(url), none, noLookup);
    expect(r.ok).toBe(false);
  });

  it("refuses a name when any of its addresses is refused, and pins one (IPv4 first) when all are public", async () => {
    const mixed = await resolveTarget("git.example", none, async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ]);
    expect(mixed).toMatchObject({ ok: false });
    expect(!mixed.ok && mixed.error).toContain("10.0.0.5");
    const pub = await resolveTarget("git.example", none, async () => [
      { address: "2606:4700::6810:84e5", family: 6 },
      { address: "93.184.215.14", family: 4 },
    ]);
    expect(pub).toEqual({ ok: true, address: "93.184.215.14", family: 4 }); // IPv4 preferred
    const v6only = await resolveTarget("git.example", none, async () => [{ address: "2606:4700::6810:84e5", family: 6 }]);
    expect(v6only).toEqual({ ok: true, address: "2606:4700::6810:84e5", family: 6 });
    const failed = await resolveTarget("nowhere.invalid", none, async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    });
    expect(!failed.ok && failed.error).toContain("ENOTFOUND");
  });

  it("lets the operator allow host names, single addresses and CIDR ranges", async () => {
    const allow = parseAllowList(" git.internal , 10.0.0.0/8,127.0.0.1, fd00::/8 ");
    expect(refusedRange("10.200.1.1", allow)).toBeNull();
    expect(refusedRange("127.0.0.1", allow)).toBeNull();
    expect(refusedRange("::ffff:127.0.0.1", allow)).toBeNull();
    expect(refusedRange("127.0.0.2", allow)).toBe("loopback");
    expect(refusedRange("192.168.0.1", allow)).toBe("private");
    expect(refusedRange("fd12::1", allow)).toBeNull();
    expect(refusedRange("fe80::1", allow)).toBe("linkLocal");
    const named = await resolveTarget("GIT.internal", allow, async () => [{ address: "192.168.7.7", family: 4 }]);
    expect(named).toEqual({ ok: true, address: "192.168.7.7", family: 4 });
    const other = await resolveTarget("other.internal", allow, async () => [{ address: "192.168.7.7", family: 4 }]);
    expect(other.ok).toBe(false);
    expect(() => parseAllowList("10.0.0.0/99")).toThrow(/CIDR/);
  });
});
