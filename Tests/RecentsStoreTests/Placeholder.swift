// Store tests land in the following commits.
