/** The only place the web app reads build-time configuration. */
export const env = {
  production: import.meta.env.PROD,
  docsUrl: (import.meta.env.VITE_DOCS_URL as string | undefined) ?? 'https://docs.robot-portal.example',
  tutorialsUrl:
    (import.meta.env.VITE_TUTORIALS_URL as string | undefined) ?? 'https://docs.robot-portal.example/tutorials',
  /** Gravatar-compatible avatar service; the image falls back to initials when it cannot be reached. */
  avatarBaseUrl: (import.meta.env.VITE_AVATAR_URL as string | undefined) ?? 'https://www.gravatar.com/avatar',
  /** The external help centre behind the user menu's Get Support entry. */
  supportUrl: (import.meta.env.VITE_SUPPORT_URL as string | undefined) ?? 'https://support.robot-portal.example',
  /** Where the privacy policy tells people to send data protection requests. */
  privacyEmail: (import.meta.env.VITE_PRIVACY_EMAIL as string | undefined) ?? 'privacy@robot-portal.example',
  sentryDsn: import.meta.env.VITE_SENTRY_DSN as string | undefined,
} as const;
