import { hash, verify } from '@node-rs/argon2';

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes, 1 lane) unless configured.
let cost: HashCost = { memoryCost: 19_456, timeCost: 2 };

/** Set once at start from configuration (tests use a cheaper cost to keep the suite fast). */
export function setHashCost(next: HashCost): void {
  cost = next;
  dummyHash = undefined;
}

const options = () => ({ algorithm: 2, parallelism: 1, ...cost }) as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options());
}

/** Verifies against the parameters stored in the hash itself, so a cost change keeps old hashes valid. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this when the account does not exist keeps the answer time the same. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash('not-a-real-password-0!A', options());
  return dummyHash;
}
