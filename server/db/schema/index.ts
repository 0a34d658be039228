// The one list of schema modules: drizzle-kit reads this file to generate migrations.
export * from './people';
export * from './geo';
export * from './places';
export * from './packages';
export * from './sync';
export * from './files';
export * from './org';
export * from './delivery';
export * from './money';
export * from './routes';
export * from './webhooks';
export * from './audit';
export * from './recipients';
export * from './dispatch';
export * from './pricing';
export * from './refusedDelivery';
export * from './location';
