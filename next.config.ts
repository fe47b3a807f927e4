import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The IDE must work offline: nothing is fetched from a CDN at run time.
  images: { unoptimized: true },
};

export default nextConfig;
