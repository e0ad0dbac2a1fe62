// Package playbook is PLAyBOOK (seed 000 ch. 4, seed 002 ch. 4; spec
// async-batch-playbook): asynchronous batch BO that penalises the
// acquisition around the running trials with local penalisers, global or
// local Lipschitz constants and hard or soft penalties (playbook-l, -h,
// -ll, -hl; playbook is -h), instead of fantasising them as gpbo's
// Kriging Believer does. Its model and design are gpbo's.
package playbook
