/** How long personal data is kept before it is anonymised, as the privacy policy states it (spec/000 §2). */
export const DATA_RETENTION_YEARS = 2;

export interface DataUsageRow {
  purpose: string;
  data: string;
  basis: string;
}

const retention = `Retained for ${DATA_RETENTION_YEARS} years, then anonymised.`;

/** The Data Usage Table of spec/000 §2: seven purposes, each kept two years then anonymised. */
export const DATA_USAGE_ROWS: readonly DataUsageRow[] = [
  {
    purpose: 'Creating and managing your account',
    data: 'Name, email address, password (stored only as a one-way hash), organisation, country, profession',
    basis: `Contract: we need it to provide your account. ${retention}`,
  },
  {
    purpose: 'Signing you in and keeping your account secure',
    data: 'Email address, sign-in times, failed sign-in attempts, IP address, browser details, session tokens',
    basis: `Legitimate interests: protecting your account and our service from misuse. ${retention}`,
  },
  {
    purpose: 'Licensing, pairing and managing your robots',
    data: 'Robot make, model and name, hardware identifier, availability, pairing codes, license records, email addresses you share licenses with',
    basis: `Contract: we need it to deliver the licenses you hold. ${retention}`,
  },
  {
    purpose: 'Metering dial time',
    data: 'Dial time used and remaining, robot and license identifiers, times of use',
    basis: `Contract: dial time is part of the service you signed up for. ${retention}`,
  },
  {
    purpose: 'Taking payments and managing subscriptions',
    data: 'Plan and subscription status, orders, invoices, payment provider customer reference (never your card number)',
    basis: `Contract, and our legal obligation to keep accounting records. ${retention}`,
  },
  {
    purpose: 'Providing Hub downloads',
    data: 'Download records (platform, version, time) and your acceptance of the license agreement',
    basis: `Contract: recording acceptance of the software license before delivery. ${retention}`,
  },
  {
    purpose: 'Answering support requests and sending service emails or, if you opt in, product news',
    data: 'Name, email address, your messages and our replies, marketing preference',
    basis: `Legitimate interests for support and service emails; consent for product news, which you can withdraw at any time. ${retention}`,
  },
];
