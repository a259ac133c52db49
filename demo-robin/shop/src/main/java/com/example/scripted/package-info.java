/** The corpus's scripted conversations: a stand-in model that plays a script, and the runner of Robin's sessions. */
package com.example.scripted;
