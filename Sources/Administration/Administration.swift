// Administration
