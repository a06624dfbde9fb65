import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts by itself only where test globals are on; they are off here.
afterEach(cleanup);
