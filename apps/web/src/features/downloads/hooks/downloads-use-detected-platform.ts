import * as React from 'react';
import { type DetectedPlatform, detectPlatform, type UserAgentDataLike } from '../downloads-platform';

/** navigator.userAgentData where the browser has it (Chromium): low-entropy fields, and hints on request. */
interface UserAgentData extends UserAgentDataLike {
  getHighEntropyValues?: (hints: string[]) => Promise<UserAgentDataLike>;
}

function userAgentData(): UserAgentData | undefined {
  return (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
}

function lowEntropy(data: UserAgentData | undefined): UserAgentDataLike | undefined {
  return data ? { platform: data.platform, mobile: data.mobile } : undefined;
}

/**
 * The browser's system, bitness and architecture. The user-agent string answers at once; where the
 * browser offers client hints, the architecture and bitness they give replace it (Apple silicon
 * Macs still claim "Intel" in the user-agent string).
 */
export function useDetectedPlatform(): DetectedPlatform {
  const [data, setData] = React.useState(() => lowEntropy(userAgentData()));
  React.useEffect(() => {
    const uaData = userAgentData();
    if (!uaData?.getHighEntropyValues) return;
    let cancelled = false;
    uaData
      .getHighEntropyValues(['architecture', 'bitness'])
      .then((hints) => {
        if (!cancelled) setData({ ...lowEntropy(uaData), ...hints });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  return React.useMemo(() => detectPlatform(navigator.userAgent, data), [data]);
}
