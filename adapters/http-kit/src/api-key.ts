// The owner's API key, sent as x-sheets-key; checked against the stored hashes.
import type { Request, RequestHandler } from 'express';
import { SwitchyardError, type ApiKeyStore } from '@switchyard/core';

export const API_KEY_HEADER = 'x-sheets-key';

export async function checkApiKey(req: Request, apiKeys: ApiKeyStore): Promise<void> {
  const key = req.get(API_KEY_HEADER);
  if (!key) throw new SwitchyardError('credential_required', `this request needs the API key in the ${API_KEY_HEADER} header`, { header: API_KEY_HEADER });
  if (!(await apiKeys.verify(key))) throw new SwitchyardError('invalid_api_key', `the key in ${API_KEY_HEADER} is not a valid API key`, { header: API_KEY_HEADER });
}

export const requireApiKey = (apiKeys: ApiKeyStore): RequestHandler => async (req, _res, next) => {
  await checkApiKey(req, apiKeys);
  next();
};
