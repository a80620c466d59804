"""Language server: translates documents and positions to algorithm calls and back."""
