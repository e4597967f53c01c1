// The benchmark's data, written with plain SQL into the database the portal migrated: accounts with
// real argon2id hashes, a download catalogue, dial time, and three accounts holding 1, 100 and 1,000
// robots each bound to a license (GetRobots).
import { hash } from '@node-rs/argon2';
import postgres from 'postgres';

export const PASSWORD = 'Bench-Robot-2026!';
export const LICENCE_COUNTS = [1, 100, 1_000] as const;

export interface Seeded {
  /** the account that signs in and reads the catalogue and its dial time */
  reader: { id: string; email: string };
  /** accounts by the number of licenses they hold */
  holders: Record<number, { id: string; email: string }>;
}

export async function seed(url: string, cost: { memoryCost: number; timeCost: number }): Promise<Seeded> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const passwordHash = await hash(PASSWORD, { algorithm: 2, parallelism: 1, ...cost });
    const user = async (email: string) => {
      const [row] = await sql<{ id: string }[]>`
        insert into users (email, password_hash, name, year_born, country, terms_agreed, email_validated, joined_at)
        values (${email}, ${passwordHash}, 'Bench User', 1990, 'United Kingdom', true, true, now() - interval '40 days')
        returning id`;
      return { id: (row as { id: string }).id, email };
    };
    const reader = await user('reader@bench-portal.net');
    const holders: Seeded['holders'] = {};
    for (const n of LICENCE_COUNTS) {
      const holder = await user(`holder-${n}@bench-portal.net`);
      holders[n] = holder;
      await sql`
        with r as (
          insert into robots (user_id, make, model, name, hardware_hash, available, config, registered_at, updated_at)
          select ${holder.id}, 'Pepper', 'Pepper 1.8', 'Robot ' || i, 'hw-' || ${n} || '-' || i, i % 2 = 0,
                 jsonb_build_object('modalities', jsonb_build_array('camera', 'speech'), 'firmware', '2.' || (i % 7)),
                 now() - make_interval(secs => i), now()
          from generate_series(1, ${n}) i
          returning id, registered_at)
        insert into robot_licenses (user_id, asset_id, robot_make, robot_model, robot_id, starts_at, duration_s, ends_at, source, paired_at)
        select ${holder.id}, 'driver-pepper', 'Pepper', 'Pepper 1.8', r.id, now() - interval '1 day', 31536000,
               now() + interval '364 days', 'operator', now()
        from r`;
    }
    // A catalogue of six assets with two artifacts each.
    for (let a = 1; a <= 6; a++) {
      const id = `bench-asset-${a}`;
      await sql`insert into assets (id, type, name, description, author, license, make, model)
                values (${id}, 'robot_driver', ${`Driver ${a}`}, 'A driver for the benchmark', 'Bench', 'MIT', 'Pepper', 'Pepper 1.8')`;
      for (const [os, minor] of [
        ['linux', 1],
        ['windows', 2],
      ] as const) {
        const version = { major: 1, minor, patch: a, revision: 0 };
        await sql`insert into artifacts (asset_id, os, arch, version_info, language, store_key, file_name, size_bytes, checksum)
                  values (${id}, ${os}, 'amd64', ${sql.json({ sdk: version, client: version, core: version, messaging: version })},
                          'en', ${`${id}/${os}.zip`}, ${`${os}.zip`}, 1048576, ${'ab'.repeat(32)})`;
      }
    }
    // Dial time: a grant and some use.
    await sql`insert into time_ledger (user_id, kind, perishable, durable, minutes, period_start, reason, created_at)
              values (${reader.id}, 'grant', 0, 600, 600, now() - interval '10 days', 'bench', now()),
                     (${reader.id}, 'use', 0, -30, -30, now() - interval '10 days', 'bench', now())`;
    await sql`vacuum analyze`;
    return { reader, holders };
  } finally {
    await sql.end();
  }
}
