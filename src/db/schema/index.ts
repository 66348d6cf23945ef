// Every D1 table. drizzle-kit reads this file (`npm run db:generate`); add a line per schema file.
export * from './accounts';
export * from './identity';
export * from './audit-events';
export * from './events';
export * from './messages';
export * from './templates';
export * from './webhooks';
export * from './submissions';
export * from './signing-identities';
export * from './submission-documents';
export * from './signing';
export * from './billing';
export * from './signing-uploads';
export * from './audit-archives';
export * from './account-fences';
export * from './custom-domains';
