/** The shop-support agent: its tools, its orders, and the main that plays a script of conversations with it. */
package com.example.shop;
