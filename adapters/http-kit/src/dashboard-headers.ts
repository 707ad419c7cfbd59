// The security headers of the owner's pages under /dashboard (the dashboard's and the OAuth face's).
import helmet from 'helmet';

/** The dashboard's headers (CSP same-origin only, no framing); the OAuth pages use them too. */
export const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'same-origin' },
});
